package scripttest

// This file holds the script command that asserts an exact exit status,
// which testscript's own "! exec" cannot tell apart (misuse is 2, a failed
// experiment is 1):
//
//	exits 2 fencelab claim --bogus
//
// It runs the program like exec, keeps its stdout and stderr for the
// commands that follow, and fails unless the status is exactly the one
// given.

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS PROGRAM [ARGS...] (no negation)")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: status %q is not an integer", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			ts.Fatalf("exits: %v", err)
		}
		got = exitErr.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d; want %d", args[1], got, want)
	}
}
