//go:build linux

package worker_test

// The tests of StartChild's promise on Linux (child_linux.go): a child
// dies with the process that started it, however that process dies, and
// only then; and killing a child kills its process group.

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// family is what a parent tells the test of the processes it started.
type family struct {
	Pids []int `json:"pids"`
}

var (
	// parent starts two stubborn workers of its own, stops the second
	// (SIGSTOP), as the runner stops a worker it pauses, tells the test
	// their pids, and waits to be killed.
	parent = worker.Role{Name: "parent", Run: func(ctx context.Context, _ []string, l *worker.Link) error {
		var kids family
		for range 2 {
			p, err := worker.Start(ctx, stubborn)
			if err != nil {
				return err
			}
			kids.Pids = append(kids.Pids, p.Pid)
		}
		if err := syscall.Kill(kids.Pids[1], syscall.SIGSTOP); err != nil {
			return err
		}
		if err := l.Send(kids); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	}}
	// forks starts a sleep of its own the plain way, which stays in its
	// process group, tells the test its pid, and waits to be killed.
	forks = worker.Role{Name: "forks", Run: func(ctx context.Context, _ []string, l *worker.Link) error {
		sleep := exec.Command("sleep", "600")
		if err := sleep.Start(); err != nil {
			return err
		}
		if err := l.Send(family{Pids: []int{sleep.Process.Pid}}); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	}}
)

func init() { roles = append(roles, parent, forks) }

// TestAChildDiesWithItsParentEvenStopped: kill -9 of a process that
// started workers (as the runner is killed) kills them too, the one it had
// stopped with SIGSTOP included, within 5 s; and each led a process group
// of its own, which the parent's own kill did not reach.
func TestAChildDiesWithItsParentEvenStopped(t *testing.T) {
	t.Parallel()
	p, err := worker.Start(t.Context(), parent)
	assert.NilError(t, err)
	defer p.Stop()
	var kids family
	assert.NilError(t, p.Recv(&kids))
	t.Cleanup(func() {
		for _, pid := range kids.Pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	waitFor(t, 10*time.Second, func() bool { return procState(kids.Pids[1]) == "T" }, "the parent's second worker was never stopped")
	for _, pid := range kids.Pids {
		pgid, err := syscall.Getpgid(pid)
		assert.NilError(t, err)
		assert.Equal(t, pgid, pid, "worker %d's process group; want a group of its own", pid)
	}

	p.Kill()

	for _, pid := range kids.Pids {
		waitFor(t, 5*time.Second, func() bool { return !procAlive(pid) }, "worker %d (state %q) outlived its parent, killed with kill -9, by 5 s", pid, procState(pid))
	}
}

// TestAChildOutlivesTheThreadThatStartedIt: the kernel ties a child's life
// to the thread that forked it, and Go ends a thread when a goroutine
// locked to it returns. A worker started from such a goroutine lives on
// after that thread has ended, and after many more threads have: it still
// answers.
func TestAChildOutlivesTheThreadThatStartedIt(t *testing.T) {
	t.Parallel()
	type started struct {
		p            *worker.Process
		err          error
		tid          int
		onMainThread bool
	}
	var s started
	// The runtime never ends the main thread: it wedges it instead; a
	// goroutine that lands there is tried again.
	for try := 0; try == 0 || s.onMainThread; try++ {
		assert.Assert(t, try < 20, "every goroutine ran on the main thread")
		got := make(chan started, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
			p, err := worker.Start(t.Context(), echo)
			got <- started{p: p, err: err, tid: syscall.Gettid(), onMainThread: syscall.Gettid() == os.Getpid()}
		}()
		s = <-got
		assert.NilError(t, s.err)
		t.Cleanup(s.p.Stop)
	}
	task := "/proc/self/task/" + strconv.Itoa(s.tid)
	waitFor(t, 10*time.Second, func() bool { _, err := os.Stat(task); return err != nil }, "thread %d did not end after its locked goroutine returned", s.tid)
	// Whichever thread did fork it must not end either: end many, taken
	// over a few at a time by goroutines that lock them and return, so
	// that the runtime reaches for every thread it has idle. Children are
	// forked from one thread, the same before and after.
	forker := worker.ForkerThread()
	for range threadsEnded / threadsAtOnce {
		var locked, ended sync.WaitGroup
		release := make(chan struct{})
		for range threadsAtOnce {
			locked.Add(1)
			ended.Add(1)
			go func() {
				defer ended.Done()
				runtime.LockOSThread()
				locked.Done()
				<-release
			}()
		}
		locked.Wait()
		close(release)
		ended.Wait()
	}

	got, err := worker.Ask[message](s.p, message{N: 1})

	assert.Equal(t, worker.ForkerThread(), forker, "the thread children are forked from changed")
	_, statErr := os.Stat("/proc/self/task/" + strconv.Itoa(forker))
	assert.NilError(t, statErr, "the thread children are forked from has ended")
	assert.NilError(t, err, "the worker died with the thread that started it")
	assert.Equal(t, got.Pid, s.p.Pid)
	assert.NilError(t, s.p.WaitClean())
}

// TestAChildOutlivesTheThreadThatStartedIt ends threadsEnded threads
// after starting its worker, threadsAtOnce at a time: enough that the
// runtime hands the thread the worker was forked from, were it free, to
// one of them.
const (
	threadsEnded  = 400
	threadsAtOnce = 8
)

// TestKillEndsTheChildsGroup: Kill, and cancelling the context a worker
// was started with, end what the worker started in its own process group
// too, not the worker alone.
func TestKillEndsTheChildsGroup(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"kill", "cancel"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			p, err := worker.Start(ctx, forks)
			assert.NilError(t, err)
			defer p.Stop()
			var kids family
			assert.NilError(t, p.Recv(&kids))
			sleep := kids.Pids[0]
			t.Cleanup(func() { _ = syscall.Kill(sleep, syscall.SIGKILL) })

			if how == "kill" {
				p.Kill()
			} else {
				cancel()
				<-p.Done()
			}

			waitFor(t, 5*time.Second, func() bool { return !procAlive(sleep) }, "the worker's sleep %d outlived it by 5 s after %s", sleep, how)
		})
	}
}

// waitFor polls done every 10 ms, and fails the test with the message
// format gives if within passes first. Processes are watched through
// /proc: no signal says when another process has ended.
func waitFor(t *testing.T, within time.Duration, done func() bool, format string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf(format, args...)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// procState is process pid's state letter in /proc/pid/stat ("S", "T",
// "Z", ...), or "" if there is no such process.
func procState(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	for i := len(data) - 1; i >= 0; i-- {
		if data[i] == ')' && i+2 < len(data) {
			return string(data[i+2])
		}
	}
	return ""
}

// procAlive reports whether process pid exists and is not a zombie.
func procAlive(pid int) bool {
	st := procState(pid)
	return st != "" && st != "Z" && st != "X"
}
