package nestedclaims

// This file holds what the chapter's tests share: the actor they all work
// for, how long its leases last, and a provider that records it ran.

import (
	"context"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// The actor every test works for, and how long its leases last.
const (
	operator     = "operator-course"
	leaseMinutes = 15
)

// complete is a provider that records it was invoked and completes.
func complete(invoked *bool) actor.Provider {
	return func(context.Context, actor.Assignment) (actor.State, error) {
		*invoked = true
		return actor.Completed, nil
	}
}

// stallBeforeStart makes process a's next run of id stop once, when its
// attempt is recorded and id is not yet RUNNING: the gap between the
// attempt and the start. While it is stopped, the clock moves to minute 20
// (past a lease acquired at 0) and meanwhile runs on another goroutine of
// the same process, as a process's other work would, using a itself. The
// result reports whether the run stopped.
//
// meanwhile runs on its own goroutine, so it must report failures through
// its results, never by failing the test.
func stallBeforeStart(o *actortest.Ledger, a *actor.Process, id string, meanwhile func(ctx context.Context)) (stopped *bool) {
	stopped = new(bool)
	a.PauseBeforeTransactions(func() {
		if *stopped {
			return
		}
		if asg := o.Assignment(id); asg.AttemptID == "" || asg.State != actor.Created {
			return
		}
		*stopped = true // before the goroutine starts: its own pauses see it
		o.Clock.Set(20)
		done := make(chan struct{})
		go func() {
			defer close(done)
			meanwhile(context.WithoutCancel(o.TB.Context()))
		}()
		<-done
	})
	return stopped
}
