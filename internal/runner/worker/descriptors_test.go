//go:build linux

package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// openDescriptors counts this process's open file descriptors.
func openDescriptors(t testing.TB) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	assert.NilError(t, err)
	return len(fds)
}

// warmPoller opens and closes a pipe: the first pipe a process makes also
// opens the runtime's poller, for good, which is no descriptor left open
// by the code under test.
func warmPoller() {
	if r, w, err := os.Pipe(); err == nil {
		r.Close()
		w.Close()
	}
}

// withoutGC turns the garbage collector off for the rest of the test, so
// that a descriptor left open is not closed behind the test's back by a
// file's finalizer.
func withoutGC(t testing.TB) {
	t.Helper()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}

// TestWorkersLeaveNoDescriptorOpen: a parent that starts workers and
// ends them, as the torture run does a thousand times, has as many
// descriptors open afterwards as before. Waiting for a worker and killing
// it both close every pipe of its link once the worker has ended, none
// left for a finalizer. (It does not run in parallel: other tests open
// descriptors.)
func TestWorkersLeaveNoDescriptorOpen(t *testing.T) {
	for _, tc := range []struct {
		how string
		end func(t *testing.T, p *worker.Process)
	}{
		{"waited for", func(t *testing.T, p *worker.Process) { assert.NilError(t, p.WaitClean()) }},
		{"killed", func(t *testing.T, p *worker.Process) {
			assert.Check(t, !p.Kill().Normal, "a killed worker's exit is not normal")
		}},
	} {
		t.Run(strings.ReplaceAll(tc.how, " ", "_"), func(t *testing.T) {
			withoutGC(t)
			warmPoller()
			before := openDescriptors(t)
			for i := range 5 {
				p, err := worker.Start(t.Context(), echo)
				assert.NilError(t, err)
				_, err = worker.Ask[message](p, message{N: i})
				assert.NilError(t, err)
				tc.end(t, p)
			}
			assert.Equal(t, openDescriptors(t), before, "descriptors open after five workers started and %s", tc.how)
		})
	}
}

// startGone is what TestMain's no-executable mode reports: the error of
// a Start whose program is gone, and the descriptors open around it.
type startGone struct {
	Err           string `json:"err"`
	Before, After int
}

// noExecutable is TestMain's mode for TestAWorkerThatCannotStartLeavesNothingOpen:
// it deletes its own program, then tries to start a worker.
const noExecutable = "WORKER_TEST_NO_EXECUTABLE"

// startWithoutExecutable runs in a copy of the test binary: it removes
// that copy, starts a worker (which cannot be), and prints what happened.
func startWithoutExecutable() {
	self, err := os.Executable()
	if err == nil {
		err = os.Remove(self)
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	debug.SetGCPercent(-1)
	warmPoller()
	var got startGone
	fds, _ := os.ReadDir("/proc/self/fd")
	got.Before = len(fds)
	_, err = worker.Start(context.Background(), echo)
	fds, _ = os.ReadDir("/proc/self/fd")
	got.After = len(fds)
	if err != nil {
		got.Err = err.Error()
	}
	_ = json.NewEncoder(os.Stdout).Encode(got)
	os.Exit(0)
}

// TestAWorkerThatCannotStartLeavesNothingOpen: when the program to start
// again is gone, Start reports that it could not start the worker, and
// closes every pipe it had opened for it.
func TestAWorkerThatCannotStartLeavesNothingOpen(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	assert.NilError(t, err)
	copyPath := filepath.Join(t.TempDir(), "worker.test")
	src, err := os.Open(self)
	assert.NilError(t, err)
	defer src.Close()
	dst, err := os.OpenFile(copyPath, os.O_CREATE|os.O_WRONLY, 0o755)
	assert.NilError(t, err)
	_, err = io.Copy(dst, src)
	assert.NilError(t, err)
	assert.NilError(t, dst.Close())

	cmd := exec.Command(copyPath)
	cmd.Env = append(os.Environ(), noExecutable+"=1")
	out, err := cmd.Output()
	assert.NilError(t, err, "the helper: %s", out)
	var got startGone
	assert.NilError(t, json.Unmarshal(out, &got), "the helper printed %q", out)

	assert.Assert(t, got.Err != "", "Start of a worker whose program is gone returned no error")
	assert.Check(t, got.After == got.Before, "descriptors open after a failed Start: %d; before: %d", got.After, got.Before)
}

// fewDescriptors is TestMain's mode for
// TestAWorkerStartedWithoutDescriptorsLeftLeavesNothingOpen: it lowers its
// limit of open descriptors to those it has open plus the variable's
// value, then tries to start a worker.
const fewDescriptors = "WORKER_TEST_FEW_DESCRIPTORS"

// startWithFewDescriptors runs in a copy of this test binary: it lets
// itself open only spare more descriptors, starts a worker, and prints
// what happened (Err empty: the worker started, and was stopped).
func startWithFewDescriptors(spare string) {
	n, err := strconv.Atoi(spare)
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	debug.SetGCPercent(-1)
	warmPoller()
	// A new descriptor takes the lowest free number, and the limit bounds
	// the numbers: it allows exactly n more only with no gap below the
	// highest open one, so the gaps are filled first (and stay filled).
	open := openNumbers()
	for len(open) > 0 && open[len(open)-1] != len(open)-1 {
		if _, err := os.Open(os.DevNull); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		open = openNumbers()
	}
	var got startGone
	got.Before = len(open)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	few := lim
	few.Cur = uint64(len(open) + n)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &few); err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	p, err := worker.Start(context.Background(), echo)
	if err != nil {
		got.Err = err.Error()
	} else {
		p.Stop()
	}
	// Counting needs a descriptor of its own.
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	got.After = len(openNumbers())
	_ = json.NewEncoder(os.Stdout).Encode(got)
	os.Exit(0)
}

// openNumbers returns the numbers of this process's open descriptors,
// sorted, leaving out the one that lists them.
func openNumbers() []int {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	var fds []int
	for _, name := range names {
		if fd, err := strconv.Atoi(name); err == nil && fd != int(d.Fd()) {
			fds = append(fds, fd)
		}
	}
	slices.Sort(fds)
	return fds
}

// TestAWorkerStartedWithoutDescriptorsLeftLeavesNothingOpen: whichever
// of Start's pipes, or the start of the process itself, runs out of
// descriptors, Start reports it and closes every descriptor it had opened
// for the worker. A torture run starts thousands of workers; a leak on
// this path would end it with "too many open files". Start opens two
// pipes (the link's) and a socket pair (the handshake's), two descriptors
// each, before anything else: with fewer than six to spare, one of them
// fails.
func TestAWorkerStartedWithoutDescriptorsLeftLeavesNothingOpen(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	assert.NilError(t, err)
	const pipeEnds = 6
	for spare := 0; spare <= pipeEnds+4; spare++ {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), fewDescriptors+"="+strconv.Itoa(spare))
		out, err := cmd.Output()
		assert.NilError(t, err, "the helper, with %d descriptors to spare: %s", spare, out)
		var got startGone
		assert.NilError(t, json.Unmarshal(out, &got), "the helper printed %q", out)
		switch {
		case spare < pipeEnds:
			assert.Check(t, strings.Contains(got.Err, "pipe2: too many open files") || strings.Contains(got.Err, "socketpair: too many open files"),
				"with %d descriptors to spare, Start must fail at the pipe that has none; got %q", spare, got.Err)
		case got.Err != "":
			assert.Check(t, strings.Contains(got.Err, "too many open files"),
				"with %d descriptors to spare, Start failed but not for want of them: %s", spare, got.Err)
		}
		assert.Check(t, got.After == got.Before, "with %d descriptors to spare: %d descriptors open after Start, %d before (%s)", spare, got.After, got.Before, got.Err)
	}
}
