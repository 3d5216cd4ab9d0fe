package nestedclaims

// This file holds the minute an actor lease ends, from both sides: the
// holder's (its own acquire, its attempt, its start and its terminal
// write) and the challenger's (another process's acquire and run). A lease
// acquired at minute 0 for 15 minutes is live at 14 and over at 15, for
// everyone at once: if the holder still acted at 15 while a challenger
// could take over at 15, two processes would act for one actor.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// The minutes either side of the end of a lease acquired at minute 0.
const (
	oneBeforeExpiry = leaseMinutes - 1
	atExpiry        = leaseMinutes
)

// TestActorLeaseEndsAtItsExpiryMinute: process A acquires the operator's
// lease at minute 0, until minute 15. At 14 every acquire is refused as
// held, A's own included: a live lease is not renewed by acquiring it
// again, and the refusal changes nothing and mints nothing. At 15 the
// lease is over for A as much as for B: whoever acquires gets a new lease
// with a greater token, never A's old one handed back.
func TestActorLeaseEndsAtItsExpiryMinute(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		challenger bool // B acquires; otherwise A, the holder, acquires again
		at         int64
		want       actor.Reason
	}{
		{name: "holder_one_before", at: oneBeforeExpiry, want: actor.ActorLeaseHeld},
		{name: "holder_at_expiry", at: atExpiry, want: actortest.Granted},
		{name: "challenger_one_before", challenger: true, at: oneBeforeExpiry, want: actor.ActorLeaseHeld},
		{name: "challenger_at_expiry", challenger: true, at: atExpiry, want: actortest.Granted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			a, b := o.Process(), o.Process()
			o.Clock.Set(0)
			held := actortest.Acquire(t, a, operator)
			who, name := a, "process A (the holder)"
			if tc.challenger {
				who, name = b, "process B (the challenger)"
			}

			o.Clock.Set(tc.at)
			before := o.State()
			got, err := who.AcquireLease(t.Context(), operator)

			assert.Equal(t, actortest.Reason(t, err), tc.want,
				"%s acquires the operator's lease at minute %d; A's lease (token %d) runs until minute %d", name, tc.at, held.Token, held.ExpiresAt)
			if tc.want != actortest.Granted {
				assert.Check(t, cmp.DeepEqual(o.State(), before),
					"%s's refused acquire at minute %d changed the ledger (or burned a token)", name, tc.at)
				return
			}
			assert.Check(t, got.Token > held.Token,
				"%s's lease at minute %d has token %d; want a new generation, greater than A's %d", name, tc.at, got.Token, held.Token)
			want := actor.Lease{Actor: operator, Holder: who.ID(), Token: got.Token, ExpiresAt: tc.at + leaseMinutes}
			assert.Check(t, cmp.DeepEqual(got, want), "the lease %s was handed at minute %d", name, tc.at)
			assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), want),
				"the operator's lease as committed after %s acquired it at minute %d", name, tc.at)
		})
	}
}

// TestAttemptNeedsALiveLeaseAtItsExpiryMinute: process A acquires the
// operator's lease at minute 0, until minute 15, and nobody takes it over.
// An attempt A starts under it at 14 is granted; at 15 the lease is over
// and the attempt is refused as a lost lease, leaving asg-1 as it was.
func TestAttemptNeedsALiveLeaseAtItsExpiryMinute(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		at   int64
		want actor.Reason
	}{
		{name: "one_before", at: oneBeforeExpiry, want: actortest.Granted},
		{name: "at_expiry", at: atExpiry, want: actor.ActorLeaseLost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			o.Clock.Set(0)
			l := actortest.Acquire(t, a, operator)

			o.Clock.Set(tc.at)
			before := o.State()
			att, err := a.AcquireAttempt(t.Context(), "asg-1", l)

			assert.Equal(t, actortest.Reason(t, err), tc.want,
				"process A's attempt on asg-1 at minute %d under its lease (token %d) that runs until minute %d", tc.at, l.Token, l.ExpiresAt)
			if tc.want != actortest.Granted {
				assert.Check(t, cmp.DeepEqual(o.State(), before), "process A's refused attempt at minute %d changed the ledger", tc.at)
				return
			}
			want := actor.Assignment{ID: "asg-1", Actor: operator, State: actor.Created,
				AttemptID: att.ID, AttemptToken: att.Token, LeaseToken: l.Token}
			assert.Check(t, cmp.DeepEqual(o.Assignment("asg-1"), want), "asg-1 as committed after process A's attempt at minute %d", tc.at)
		})
	}
}

// TestRunNeedsALiveLeaseAtItsExpiryMinute: process A runs asg-1 under a
// lease acquired at minute 0, until minute 15, and nobody takes it over.
// A's clock moves on at one of two moments: between recording its attempt
// and marking asg-1 RUNNING (start), or while its provider works (finish).
// At 14 the run goes on to COMPLETED. At 15 the step is refused as a lost
// lease: a start that is refused never invokes the provider, and a
// terminal write that is refused leaves asg-1 RUNNING.
func TestRunNeedsALiveLeaseAtItsExpiryMinute(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		duringRun bool // the clock moves while the provider works; otherwise before the start
		at        int64
		want      actor.Reason
		wantState actor.State
	}{
		{name: "start_one_before", at: oneBeforeExpiry, want: actortest.Granted, wantState: actor.Completed},
		{name: "start_at_expiry", at: atExpiry, want: actor.ActorLeaseLost, wantState: actor.Created},
		{name: "finish_one_before", duringRun: true, at: oneBeforeExpiry, want: actortest.Granted, wantState: actor.Completed},
		{name: "finish_at_expiry", duringRun: true, at: atExpiry, want: actor.ActorLeaseLost, wantState: actor.Running},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			invoked := false
			provider := func(context.Context, actor.Assignment) (actor.State, error) {
				invoked = true
				if tc.duringRun {
					o.Clock.Set(tc.at)
				}
				return actor.Completed, nil
			}
			if !tc.duringRun {
				moved := false
				a.PauseBeforeTransactions(func() {
					// Just before the attempt's transaction: the attempt
					// reads minute 0, the start reads the new minute.
					if !moved && o.CurrentLease(operator).Holder == a.ID() && o.Assignment("asg-1").AttemptID == "" {
						moved = true
						o.Clock.Set(tc.at)
					}
				})
			}
			o.Clock.Set(0)
			run, err := a.RunAssignment(t.Context(), "asg-1", provider)

			assert.Equal(t, actortest.Reason(t, err), tc.want,
				"process A's run of asg-1 with its clock at minute %d, its lease (token %d) running until minute %d", tc.at, run.Lease.Token, run.Lease.ExpiresAt)
			got := o.Assignment("asg-1")
			assert.Check(t, cmp.Equal(got.State, tc.wantState), "asg-1 after process A's run with its clock at minute %d", tc.at)
			assert.Check(t, cmp.Equal(got.AttemptID, run.Attempt.ID), "asg-1's current attempt after process A's run")
			wantInvoked := tc.duringRun || tc.want == actortest.Granted
			assert.Check(t, cmp.Equal(invoked, wantInvoked),
				"process A's provider invoked (true) or not (false) when its start read minute %d", tc.at)
		})
	}
}

// TestTakeoverAtTheLeasesExpiryMinute: process A runs asg-1 under a lease
// that ends at minute 15, and its provider stalls to minute 14 or 15.
// Meanwhile process B runs asg-1 through the ordinary path. At 14 B is
// refused as held before its provider runs, and A completes asg-1. At 15
// B takes the operator over, starts a newer attempt and completes asg-1;
// A's terminal write is refused. A's lease is over too, but the refusal
// names the superseded attempt, which is checked first.
func TestTakeoverAtTheLeasesExpiryMinute(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		at    int64
		wantA actor.Reason // A's run
		wantB actor.Reason // B's run
	}{
		{name: "one_before", at: oneBeforeExpiry, wantA: actortest.Granted, wantB: actor.ActorLeaseHeld},
		{name: "at_expiry", at: atExpiry, wantA: actor.AttemptLost, wantB: actortest.Granted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a, b := o.Process(), o.Process()

			var runB actor.Run
			var errB error
			var invokedB bool
			o.Clock.Set(0)
			runA, errA := a.RunAssignment(t.Context(), "asg-1", func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
				o.Clock.Set(tc.at) // A's provider stalls
				runB, errB = b.RunAssignment(ctx, "asg-1", complete(&invokedB))
				return actor.Completed, nil
			})

			assert.Check(t, cmp.Equal(actortest.Reason(t, errB), tc.wantB),
				"process B's run of asg-1 at minute %d, while A's lease runs until minute %d", tc.at, runA.Lease.ExpiresAt)
			assert.Check(t, cmp.Equal(invokedB, tc.wantB == actortest.Granted),
				"process B's provider invoked (true) or not (false) at minute %d", tc.at)
			assert.Check(t, cmp.Equal(actortest.Reason(t, errA), tc.wantA),
				"process A's terminal write of asg-1 at minute %d, its lease running until minute %d", tc.at, runA.Lease.ExpiresAt)
			winner := runA.Attempt
			if tc.wantB == actortest.Granted {
				winner = runB.Attempt
			}
			got := o.Assignment("asg-1")
			assert.Check(t, cmp.Equal(got.State, actor.Completed), "asg-1 after both runs at minute %d", tc.at)
			assert.Check(t, cmp.Equal(got.AttemptID, winner.ID),
				"asg-1's current attempt at minute %d is not the one that completed it (%s)", tc.at, winner.ID)
			assert.Check(t, cmp.Equal(o.CurrentLease(operator).Holder, ""), "the operator's lease is still held after both runs ended")
		})
	}
}
