package nestedclaims

// This file holds the tests of a run whose process loses the actor lease
// after its attempt was recorded: neither its RUNNING nor its terminal
// write may land, even though its attempt is still the current one.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestLostLeaseCannotWriteTerminalState: process A runs asg-1. Its provider
// stalls past A's lease and process B takes the operator over, but starts
// nothing on asg-1, so A's attempt is still the current one. A's terminal
// write is refused all the same, because the lease it descends from is no
// longer A's: asg-1 is not COMPLETED, and B's lease is left as it was.
func TestLostLeaseCannotWriteTerminalState(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()

	var taken actor.Lease
	o.Clock.Set(0)
	_, err := a.RunAssignment(t.Context(), "asg-1", func(context.Context, actor.Assignment) (actor.State, error) {
		o.Clock.Set(20) // A stalls past its lease (minute 15)
		taken = actortest.Acquire(t, b, operator)
		return actor.Completed, nil
	})

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
		"process A's terminal write after process B took the operator's lease (token %d) was not refused as a lost lease", taken.Token)
	got := o.Assignment("asg-1").State
	assert.Check(t, cmp.Equal(got, actor.Running),
		"process A wrote asg-1 %s after its lease ran out and process B took the operator over", got)
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), taken),
		"process A's way out changed process B's lease on the operator: the actor is left stranded or freed")
}

// TestLostLeaseBeforeStartNeverInvokesProvider: process A acquires the
// operator's lease and an attempt on asg-1, and pauses just before the
// transaction that marks asg-1 RUNNING. Meanwhile A's lease runs out and
// process B takes the operator over. A's start is refused: its provider is
// never invoked and asg-1 stays CREATED.
func TestLostLeaseBeforeStartNeverInvokesProvider(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()

	var taken actor.Lease
	tookOver := false
	a.PauseBeforeTransactions(func() {
		// Act once, when A's attempt is recorded and asg-1 is not yet
		// RUNNING: the gap between the attempt and the start.
		asg := o.Assignment("asg-1")
		if tookOver || asg.AttemptID == "" || asg.State != actor.Created {
			return
		}
		tookOver = true
		o.Clock.Set(20) // A's lease ran out at minute 15
		taken = actortest.Acquire(t, b, operator)
	})
	o.Clock.Set(0)
	var invoked bool
	_, err := a.RunAssignment(t.Context(), "asg-1", complete(&invoked))

	assert.Assert(t, tookOver,
		"process B never took over: process A began no transaction between recording its attempt and marking asg-1 RUNNING")
	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
		"process A's start of asg-1 after process B took the operator's lease (token %d) was not refused as a lost lease", taken.Token)
	assert.Check(t, !invoked, "process A invoked its provider for asg-1 after its lease ran out and process B took the operator over")
	got := o.Assignment("asg-1").State
	assert.Check(t, cmp.Equal(got, actor.Created), "process A moved asg-1 to %s after losing the operator's lease", got)
}
