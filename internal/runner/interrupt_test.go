package runner_test

import (
	"bufio"
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

	"github.com/fencelab/fencelab/internal/runner"
)

// TestMain lets this test binary be the fencelab runner: started as
// "fencelab" (by a test below, or by the runner starting its own workers)
// it runs the runner instead of the tests.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "fencelab" {
		os.Exit(runner.Main())
	}
	os.Exit(m.Run())
}

// TestInterruptStopsCleanly: SIGINT, SIGTERM and SIGHUP (a terminal that
// hangs up) all stop a run the same way. The workers are stopped, the
// temporary directory is removed, and the runner exits 1 with the one
// line "interrupted", printing no result.
func TestInterruptStopsCleanly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the test finds the runner's workers through /proc")
	}
	for _, s := range stopSignals {
		sig := s.sig
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			// A race long enough to still be running when the signal
			// comes: its workers start once its 1000 messages are stored,
			// and racing for them takes longer than storing them did.
			stopMidRun(t, sig, []string{"naive", "--race", "--processes", "3", "--rounds", "1000"},
				func(runner int) []int { return waitForWorkers(t, runner, 3) })
		})
	}
}

// TestInterruptStopsATortureRunWithItsRestartedWorkers: the torture run
// kills workers with kill -9 and starts others in their place. Stopped by
// SIGINT, SIGTERM or SIGHUP after at least one such restart, it stops
// every worker it has (the restarted ones included), removes its
// temporary directory, exits 1 with the one line "interrupted", and
// leaves no worker of its own running anywhere.
func TestInterruptStopsATortureRunWithItsRestartedWorkers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the test finds the runner's workers through /proc")
	}
	for _, s := range stopSignals {
		sig := s.sig
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			// 400 ms leases: a run that pauses, and waits out the leases
			// of the workers it kills, for much longer than this test
			// takes to see one replacement.
			tmp := stopMidRun(t, sig, []string{"torture", "--processes", "3", "--messages", "1000", "--kills", "40", "--lease-ms", "400", "--seed", "5"},
				func(runner int) []int { return waitForReplacement(t, runner, waitForWorkers(t, runner, 3)) })
			assert.Check(t, cmp.Len(workersWith(tmp), 0), "workers of the interrupted run still running anywhere")
		})
	}
}

// stopSignals are the signals that must stop a run cleanly, by name.
var stopSignals = []struct {
	name string
	sig  syscall.Signal
}{{"SIGINT", syscall.SIGINT}, {"SIGTERM", syscall.SIGTERM}, {"SIGHUP", syscall.SIGHUP}}

// stopMidRun starts the runner with args in a temporary directory of its
// own, lets ready wait for the workers the test must see stopped (it gets
// the runner's pid), sends sig, and checks what an interrupted run
// promises: exit status 1, no result, the one line "interrupted", no
// temporary directory left, none of those workers alive. It returns the
// run's TMPDIR.
func stopMidRun(t *testing.T, sig syscall.Signal, args []string, ready func(runner int) []int) string {
	t.Helper()
	self, err := os.Executable()
	assert.NilError(t, err)
	tmp := t.TempDir()
	cmd := exec.Command(self, args...)
	cmd.Args[0] = "fencelab"
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	assert.NilError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	workers := ready(cmd.Process.Pid)

	assert.NilError(t, cmd.Process.Signal(sig))
	err = cmd.Wait()

	var exitErr *exec.ExitError
	assert.Assert(t, errors.As(err, &exitErr), "the runner ended with %v after %v; want exit status 1", err, sig)
	assert.Equal(t, exitErr.ExitCode(), 1, "exit status after %v (stderr %q)", sig, &stderr)
	assert.Equal(t, stdout.String(), "", "an interrupted run prints no result")
	assert.Check(t, cmp.Regexp(`^fencelab `+args[0]+`: interrupted[^\n]*\n$`, stderr.String()))
	left, err := os.ReadDir(tmp)
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(left, 0), "the interrupted run left its temporary directory behind: %v", left)
	for _, pid := range workers {
		assert.Check(t, !alive(pid), "worker %d still running after the runner exited", pid)
	}
	return tmp
}

// waitForReplacement waits, for a bounded time, until the process pid has
// a child that is not one of first (a worker started in the place of one
// it killed), and returns every child it saw, first included.
func waitForReplacement(t *testing.T, pid int, first []int) []int {
	t.Helper()
	seen := slices.Clone(first)
	within(t, func() bool {
		replaced := false
		for _, kid := range childrenOf(pid) {
			if !slices.Contains(seen, kid) {
				seen, replaced = append(seen, kid), true
			}
		}
		return replaced
	}, "the runner did not replace any of its workers %v within a minute", first)
	return seen
}

// workersWith lists the live fencelab workers, whoever their parent is
// now, whose environment says they were started with tmp as TMPDIR.
func workersWith(tmp string) []string {
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var pids []string
	for _, path := range envs {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		vars := strings.Split(string(data), "\x00")
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if slices.Contains(vars, "TMPDIR="+tmp) && slices.ContainsFunc(vars, func(v string) bool { return strings.HasPrefix(v, "FENCELAB_ROLE=") }) && alive(pid) {
			pids = append(pids, strconv.Itoa(pid))
		}
	}
	return pids
}

// waitForWorkers waits, for a bounded time, until the process pid has n
// children, and returns their pids.
func waitForWorkers(t *testing.T, pid, n int) []int {
	t.Helper()
	var kids []int
	within(t, func() bool {
		kids = childrenOf(pid)
		return len(kids) == n
	}, "the runner did not start %d workers within a minute", n)
	return kids
}

// within polls done every 10 ms until it reports true, and fails the test
// with the message format gives if a minute passes first. The runner's
// workers are real processes: the test can only watch /proc for them.
func within(t *testing.T, done func() bool, format string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf(format, args...)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// childrenOf lists the live processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// The fields after the command name, which is in parentheses:
		// state, then the parent's pid.
		rest := string(data[bytes.LastIndexByte(data, ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) < 2 || fields[0] == "Z" || fields[1] != strconv.Itoa(pid) {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		kids = append(kids, child)
	}
	return kids
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	fields := strings.Fields(line[strings.LastIndexByte(line, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}
