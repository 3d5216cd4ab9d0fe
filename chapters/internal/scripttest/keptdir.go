package scripttest

// This file holds the script command that checks what --keep promised:
//
//	keptdir VAR
//
// reads the stderr of the last command for the line "fencelab CMD: kept
// DIR", fails unless DIR is an existing directory, and sets the
// environment variable VAR to DIR, so that the script can look inside it
// (exists $VAR/...) and then remove it (rm $VAR).

import (
	"os"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"
)

// keptLine is the line the runner prints on stderr for --keep.
var keptLine = regexp.MustCompile(`(?m)^fencelab [a-z-]+: kept (.+)$`)

func cmdKeptDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: keptdir VAR (no negation)")
	}
	m := keptLine.FindStringSubmatch(ts.ReadFile("stderr"))
	if m == nil {
		ts.Fatalf("stderr names no kept directory; want a line \"fencelab CMD: kept DIR\"")
	}
	info, err := os.Stat(m[1])
	if err != nil {
		ts.Fatalf("stderr names %s as kept, but: %v", m[1], err)
	}
	if !info.IsDir() {
		ts.Fatalf("stderr names %s as the kept directory, but it is not a directory", m[1])
	}
	ts.Setenv(args[0], m[1])
}
