//go:build linux

package worker

// This file ties a child's life to the runner's on Linux: the kernel
// kills the child (SIGKILL) when its parent dies (prctl's
// PR_SET_PDEATHSIG, which exec.Cmd sets from SysProcAttr.Pdeathsig). The
// child also leads a process group of its own, as on every Unix
// (group_unix.go).
//
// The catch: for the kernel, the "parent" whose death sends the signal is
// the thread that forked the child, not the process (prctl(2): "the
// parent in this case is considered to be the thread that created this
// process"; https://github.com/golang/go/issues/27505). A Go program's
// goroutines move between threads, and the runtime ends a thread when a
// goroutine that locked itself to it (runtime.LockOSThread) returns
// without unlocking: a child forked from such a thread would be killed
// while the runner runs on. The runner itself locks no thread, but a
// library may, and a test can. So every child is forked from one
// goroutine that locks itself to its thread for good and never returns
// (forker, below): that thread lives exactly as long as the process, and
// the signal comes when the runner dies and only then. The other ways out
// were worse: locking the goroutine that calls Start for the child's whole
// life would pin a thread per worker, and a child that watched its parent
// by polling getppid would be a loop in every role, blind while the child
// is stopped.

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// startChild starts cmd from the forker thread, killed when this process
// dies and leading a process group of its own.
func startChild(cmd *exec.Cmd) error {
	ownGroup(cmd)
	// SIGKILL and nothing milder: it ends a stopped child too (a paused
	// worker cannot run a handler), and nothing can ignore it. Go's fork
	// checks, after setting it, that the parent is still the one it
	// forked from, so a runner that dies while the child starts kills it
	// as well.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	return onForker(cmd.Start)
}

// forker is the goroutine every child is forked from, started on first
// use. It locks itself to its OS thread and never unlocks or returns, so
// the runtime never ends that thread: see the file's comment.
var forker = sync.OnceValue(func() chan<- func() {
	calls := make(chan func())
	go func() {
		runtime.LockOSThread()
		for call := range calls {
			call()
		}
	}()
	return calls
})

// onForker runs start on the forker's thread and returns its error.
func onForker(start func() error) error {
	done := make(chan error, 1)
	forker() <- func() { done <- start() }
	return <-done
}
