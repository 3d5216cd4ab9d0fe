package scripttest

// This file holds the script command that makes a run's output comparable
// with a golden file:
//
//	normalize FILE OUT
//
// writes FILE (stdout, stderr or a file in the script's work directory) to
// OUT with the values that change from run to run replaced by fixed words,
// so that `cmp OUT GOLDEN` can compare the rest exactly and
// `go test ./chapters/... -update` can rewrite GOLDEN in the script. The
// replacements:
//
//   - the script's work directory becomes $WORK, and the random digits
//     os.MkdirTemp adds to a name under it become * ($WORK/.tmp/fencelab-fencing-*);
//   - a process id in text, "pid 4242", becomes "pid PID", and the blanks
//     after it shrink or grow so the columns of a drawn table stay put;
//   - a process id in JSON, "coordinator_pid": 4242, becomes "coordinator_pid": "PID".

import (
	"os"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func cmdNormalize(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: normalize FILE OUT (no negation)")
	}
	out := normalize(ts.ReadFile(args[0]), ts.Getenv("WORK"))
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o666); err != nil {
		ts.Fatalf("normalize: %v", err)
	}
}

var (
	// tempSuffix is the random part os.MkdirTemp and os.CreateTemp put
	// after the last dash of a name.
	tempSuffix = regexp.MustCompile(`(\$WORK/\S*?-)[0-9]+\b`)
	// textPid is "pid 4242", with an optional closing parenthesis and the
	// blanks that pad its table cell.
	textPid = regexp.MustCompile(`\bpid ([0-9]+)(\)?)( *)`)
	// jsonPid is a JSON key ending in pid with a number for its value.
	jsonPid = regexp.MustCompile(`("[a-z_]*pid"): [0-9]+`)
)

// normalize returns s with its per-run values replaced (see the file
// comment); work is the script's work directory.
func normalize(s, work string) string {
	if work != "" {
		s = strings.ReplaceAll(s, work, "$WORK")
	}
	s = tempSuffix.ReplaceAllString(s, "${1}*")
	s = textPid.ReplaceAllStringFunc(s, func(m string) string {
		sub := textPid.FindStringSubmatch(m)
		digits, paren, pad := sub[1], sub[2], len(sub[3])
		if pad > 0 {
			pad = max(1, pad+len(digits)-len("PID"))
		}
		return "pid PID" + paren + strings.Repeat(" ", pad)
	})
	return jsonPid.ReplaceAllString(s, `$1: "PID"`)
}
