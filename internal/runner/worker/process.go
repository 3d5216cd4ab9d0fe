package worker

// This file holds Process: the parent's handle on one worker it started,
// whichever way it was started, with the ways it can end: asked to exit
// (Wait), stopped (Stop), or killed on purpose (Kill).

import (
	"fmt"
	"time"
)

// replyTimeout bounds every wait for a worker. Workers answer in
// milliseconds; the bound exists so a stuck worker is killed and reported,
// never waited on forever. It orders nothing: handshakes do that. It is a
// variable only so that export_test.go can shorten it for the tests of a
// stuck worker.
var replyTimeout = 30 * time.Second

// Process is a worker the parent started (see Start and StartInProcess).
// Its embedded Link carries the parent's requests and the worker's
// replies. Callers must call Stop, Wait or Kill on every path.
type Process struct {
	*Link
	Pid int

	kill func() // ends the worker at once; safe to call after it ended
	done chan struct{}
	// Set before done is closed:
	exit  Exit
	ended string // how it ended, in words: "exited with status 1"
	err   error  // a failure to wait for it, which is not an exit status
}

// Exit is how a worker ended.
type Exit struct {
	Code   int  `json:"code"`
	Normal bool `json:"normal"` // exited by itself, not killed by a signal
}

// newProcess returns a Process whose worker is reached through link and
// ended by kill; the caller calls finish once the worker has ended.
func newProcess(link *Link, pid int, kill func()) *Process {
	return &Process{Link: link, Pid: pid, kill: kill, done: make(chan struct{})}
}

// finish records how the worker ended and wakes everyone waiting for it.
func (p *Process) finish(exit Exit, ended string, err error) {
	p.exit, p.ended, p.err = exit, ended, err
	close(p.done)
}

// Done is closed once the worker has ended, whatever ended it; Exit then
// says how. A parent that watches several workers selects on it to learn
// that one died.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit reports how the worker ended. It is meaningful once Done is closed;
// before that it returns code -1, not normal.
func (p *Process) Exit() Exit {
	select {
	case <-p.done:
		return p.exit
	default:
		return Exit{Code: -1}
	}
}

// Send is Link.Send, with a worker that died reported as such rather than
// as a broken pipe.
func (p *Process) Send(v any) error {
	return p.explain(p.Link.Send(v), "before it was told")
}

// Recv is Link.Recv, with a worker that died before answering reported as
// such rather than as a bare end of file.
func (p *Process) Recv(v any) error {
	return p.explain(p.Link.Recv(v), "before answering")
}

// explain turns a link error into one that says whether the worker died.
func (p *Process) explain(err error, when string) error {
	if err == nil {
		return nil
	}
	select {
	case <-p.done:
		return fmt.Errorf("worker %d %s %s: %w", p.Pid, p.ended, when, err)
	case <-time.After(time.Second):
		return fmt.Errorf("worker %d: %w", p.Pid, err)
	}
}

// Wait closes the worker's side of the link for sending, so that it
// finishes what it was asked and exits by itself, and waits, for a
// bounded time, for that. A worker that does not exit in time is killed
// and Wait returns an error saying so. An exit status other than 0 is not
// an error here; Exit.Code tells it.
func (p *Process) Wait() (Exit, error) {
	p.CloseSend()
	select {
	case <-p.done:
	case <-time.After(replyTimeout):
		p.Stop()
		return p.exit, fmt.Errorf("worker %d did not exit within %v; killed", p.Pid, replyTimeout)
	}
	p.Close()
	if p.err != nil {
		return p.exit, fmt.Errorf("worker %d: %w", p.Pid, p.err)
	}
	return p.exit, nil
}

// WaitClean is Wait for a worker that must end well: it also reports an
// exit status other than 0 as an error.
func (p *Process) WaitClean() error {
	exit, err := p.Wait()
	if err == nil && exit.Code != 0 {
		err = fmt.Errorf("worker %d %s", p.Pid, p.ended)
	}
	return err
}

// Stop ends the worker if it is still running, waits until it has ended
// and closes the link: the clean-up every path owes a worker it started.
// It is safe to call more than once and after Wait.
func (p *Process) Stop() { p.Kill() }

// Kill ends the worker at once, as kill -9 does, without letting it
// finish what it was doing, and returns how it ended once it has. A
// worker that had already ended is not touched; its Exit is returned.
func (p *Process) Kill() Exit {
	select {
	case <-p.done:
	default:
		p.kill()
		<-p.done
	}
	p.Close()
	return p.exit
}
