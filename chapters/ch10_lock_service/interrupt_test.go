package lockservice

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestInterruptStopsMembersAndAPausedWorker: Ctrl-C (SIGINT) in the
// middle of pause-past-ttl, while worker A is stopped (SIGSTOP) and three
// members and workers A and B are the runner's children, stops every one
// of them, removes the temporary directory, and exits 1 with the one line
// "interrupted". SIGTERM and SIGHUP take the same path through the
// runner's frame, which internal/runner's TestInterruptStopsCleanly
// proves for all three; here it is the children chapter 10 adds, the
// stopped one among them, that must not outlive the runner.
func TestInterruptStopsMembersAndAPausedWorker(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("finding the runner's children needs /proc, which is Linux's: not available on %s", runtime.GOOS)
	}
	t.Parallel()
	sig := syscall.SIGINT
	self, err := os.Executable()
	assert.NilError(t, err)
	tmp := t.TempDir()
	cmd := exec.Command(self, "lockservice", "--case", "pause-past-ttl")
	cmd.Args[0] = "fencelab"
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	assert.NilError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	// Three members and workers A and B, one of them stopped.
	var kids []int
	within(t, func() bool {
		if !alive(cmd.Process.Pid) {
			t.Fatalf("the runner ended before its worker was paused: %s", &stderr)
		}
		kids = childrenOf(cmd.Process.Pid)
		return len(kids) == 5 && slices.ContainsFunc(kids, stopped)
	}, "the runner never had its members and a paused worker")

	assert.NilError(t, cmd.Process.Signal(sig))
	err = cmd.Wait()

	var exitErr *exec.ExitError
	assert.Assert(t, errors.As(err, &exitErr), "the runner ended with %v after %v; want exit status 1", err, sig)
	assert.Equal(t, exitErr.ExitCode(), 1, "exit status after %v (stderr %q)", sig, &stderr)
	assert.Equal(t, stdout.String(), "", "an interrupted run prints no result")
	assert.Check(t, cmp.Regexp(`^fencelab lockservice: interrupted[^\n]*\n$`, stderr.String()))
	left, err := os.ReadDir(tmp)
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(left, 0), "the interrupted run left its temporary directory behind")
	for _, pid := range kids {
		assert.Check(t, !alive(pid), "member or worker %d still running after the runner exited", pid)
	}
}

// within polls done every 10 ms, and fails the test if a minute passes
// first. The runner's children are real processes: the test can only
// watch /proc for them.
func within(t *testing.T, done func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stat returns the fields of /proc/pid/stat after the command name: the
// state first, then the parent's pid.
func stat(pid int) []string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	return strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
}

// childrenOf lists the live processes whose parent is pid.
func childrenOf(pid int) []int {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, p := range paths {
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if f := stat(child); len(f) >= 2 && f[0] != "Z" && f[1] == strconv.Itoa(pid) {
			kids = append(kids, child)
		}
	}
	return kids
}

// stopped reports whether process pid is stopped by a signal.
func stopped(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] == "T"
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] != "Z"
}
