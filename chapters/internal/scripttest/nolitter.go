package scripttest

// This file holds the script command that checks the runner cleaned up:
//
//	nolitter
//
// fails if the script's temporary directory (TMPDIR, or TMP on Windows)
// holds anything the runner created (a fencelab-* directory), or if a
// fencelab worker process started by this script is still alive. The
// process check reads /proc; where there is none (macOS, Windows) it is
// skipped, and the script's log says so.

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func cmdNoLitter(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: nolitter (no arguments, no negation)")
	}
	tmp := ts.Getenv(tempVar())
	entries, err := os.ReadDir(tmp)
	if err != nil {
		ts.Fatalf("read %s: %v", tmp, err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "fencelab-") {
			ts.Fatalf("the runner left %s behind", filepath.Join(tmp, e.Name()))
		}
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		ts.Logf("nolitter: no /proc here; worker processes not checked")
		return
	}
	if pids := workersOf(tmp); len(pids) > 0 {
		ts.Fatalf("fencelab worker processes still running: %v", pids)
	}
}

// tempVar names the variable that holds the script's temporary directory,
// which is where the runner's os.TempDir puts its directories: TMPDIR,
// but TMP on Windows.
func tempVar() string {
	if runtime.GOOS == "windows" {
		return "TMP"
	}
	return "TMPDIR"
}

// workersOf lists live processes that are fencelab workers (their
// environment names a role) started with tmp as their TMPDIR, which
// testscript makes unique to each script.
func workersOf(tmp string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var pids []string
	for _, p := range procs {
		env, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		vars := strings.Split(string(env), "\x00")
		if slices.ContainsFunc(vars, isRole) && slices.Contains(vars, "TMPDIR="+tmp) {
			pids = append(pids, filepath.Base(filepath.Dir(p)))
		}
	}
	return pids
}

func isRole(v string) bool { return strings.HasPrefix(v, roleEnvPrefix) }

// roleEnvPrefix is how a worker's environment names its role (see
// worker.Start).
const roleEnvPrefix = "FENCELAB_ROLE="
