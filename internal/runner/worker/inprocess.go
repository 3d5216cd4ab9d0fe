package worker

// This file starts a worker inside this process: the role's body runs on
// a goroutine, linked to its parent by in-memory pipes instead of a
// child's stdin and stdout. Everything the role does through its own
// database connections is the same; what is missing is only the process:
// its pid is the parent's, and killing it cancels its context rather than
// sending a signal. Tests that are about a table of outcomes, not about
// processes, use it to run many stories quickly.

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
)

// StartInProcess starts a worker playing r with args on a goroutine of
// this process. Its Pid is this process's pid; its Exit is {0, normal}
// when the role's body returns nil, {1, normal} when it returns an error
// (written to stderr, as a worker process would), and {-1, not normal}
// when Kill or Stop ended it.
func StartInProcess(ctx context.Context, r Role, args ...string) (*Process, error) {
	ctx, cancel := context.WithCancel(ctx)
	toWorker, fromParent := io.Pipe()
	fromWorker, toParent := io.Pipe()
	link := NewLink(toWorker, toParent)
	killed := make(chan struct{})
	p := newProcess(NewLink(fromWorker, fromParent), os.Getpid(), sync.OnceFunc(func() {
		close(killed)
		cancel()
		link.Close() // a body waiting for its next message stops waiting
	}))
	go func() {
		err := r.Run(ctx, args, link)
		// The worker is gone: its parent reads the end of its messages,
		// and whatever the parent still sends goes nowhere.
		link.Close()
		cancel()
		select {
		case <-killed:
			p.finish(Exit{Code: -1}, "was killed", nil)
		default:
			if err != nil {
				fmt.Fprintf(os.Stderr, "fencelab worker %s: %v\n", r.Name, err)
				p.finish(Exit{Code: 1, Normal: true}, "returned an error", nil)
				return
			}
			p.finish(Exit{Code: 0, Normal: true}, "returned", nil)
		}
	}()
	return p, nil
}
