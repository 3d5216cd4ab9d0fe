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

// TestProcessesNewLeaseDoesNotReviveAnOldRun: process A's run of asg-1
// stalls past its lease, and meanwhile A itself takes the operator again,
// for other work, without touching asg-1. A's old run is fenced by the
// lease it descends from, not by whichever lease A holds now: whether it
// wakes before its start or before its terminal write, it is refused as a
// lost lease, its attempt though still current. Refused before the start,
// its provider never runs; refused at the end, asg-1 stays RUNNING.
func TestProcessesNewLeaseDoesNotReviveAnOldRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		duringRun   bool // the lease is taken again while the provider works; otherwise before the start
		wantInvoked bool
		wantState   actor.State
	}{
		{name: "before_start", wantState: actor.Created},
		{name: "before_terminal_write", duringRun: true, wantInvoked: true, wantState: actor.Running},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()

			var again actor.Lease
			var againErr error
			takeAgain := func(ctx context.Context) { again, againErr = a.AcquireLease(ctx, operator) }
			invoked := false
			provider := func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
				invoked = true
				if tc.duringRun {
					o.Clock.Set(20) // the run's lease ran out at minute 15
					takeAgain(ctx)
				}
				return actor.Completed, nil
			}
			if !tc.duringRun {
				stallBeforeStart(o, a, "asg-1", takeAgain)
			}
			o.Clock.Set(0)
			run, err := a.RunAssignment(t.Context(), "asg-1", provider)

			assert.NilError(t, againErr, "process A could not take the operator's lease again after its old lease ran out")
			assert.Assert(t, again.Token != 0, "process A never took the operator's lease again")
			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
				"process A's old run of asg-1 (lease token %d, over at minute %d) while A holds its new lease (token %d)",
				run.Lease.Token, run.Lease.ExpiresAt, again.Token)
			assert.Check(t, cmp.Equal(invoked, tc.wantInvoked), "process A's old run invoked its provider (true) or not (false), %s", tc.name)
			got := o.Assignment("asg-1")
			assert.Check(t, cmp.Equal(got.State, tc.wantState), "asg-1 after process A's old run was refused %s", tc.name)
			assert.Check(t, cmp.Equal(got.AttemptID, run.Attempt.ID), "asg-1's current attempt is still the old run's")
			assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), again), "process A's old run changed the new lease it holds on the operator")
		})
	}
}

// TestGivenBackLeaseEndsTheRun: process A's provider hands the operator
// back mid-run (it releases the lease its run holds, so another process
// may start at once) and then answers COMPLETED. The run gave its
// authority away: its terminal write is refused as a lost lease and asg-1
// stays RUNNING. A clock's readings mean only their order (package clock),
// so the same holds wherever the clock starts, below zero included: a
// released lease has no expiry at all, not an expiry at 0.
func TestGivenBackLeaseEndsTheRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		start int64
	}{
		{name: "clock_from_zero", start: 0},
		{name: "clock_from_below_zero", start: -100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()

			var releaseErr error
			o.Clock.Set(tc.start)
			run, err := a.RunAssignment(t.Context(), "asg-1", func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
				// The run's own lease: A holds no other, and ReleaseLease
				// would refuse a lease A did not acquire.
				var held actor.Lease
				if held, releaseErr = a.CurrentLease(ctx, operator); releaseErr == nil {
					releaseErr = a.ReleaseLease(ctx, held)
				}
				return actor.Completed, nil
			})

			assert.NilError(t, releaseErr, "process A's provider could not give the operator's lease back")
			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
				"process A's terminal write at minute %d, after its provider gave the lease (token %d) back", tc.start, run.Lease.Token)
			got := o.Assignment("asg-1").State
			assert.Check(t, cmp.Equal(got, actor.Running), "process A wrote asg-1 %s after giving its lease back", got)
		})
	}
}
