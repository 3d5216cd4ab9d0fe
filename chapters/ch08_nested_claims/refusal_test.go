package nestedclaims

// This file holds the refusals as carefully as the grants: every terminal
// state is final, a lease speaks only for its own actor, and when several
// reasons hold at once the refusal names the one that is checked first. A
// refusal changes nothing: each test compares the whole ledger before and
// after.

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestFinishedAssignmentIsFinal: once asg-1 is COMPLETED, BLOCKED or
// FAILED, nothing starts it again. Another process's ordinary run is
// refused as finished before its provider runs, and so is an attempt
// under that process's own live lease; the ledger is left as it was,
// apart from the lease the refused run took and gave back.
func TestFinishedAssignmentIsFinal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		provider actor.Provider
		want     actor.State
	}{
		{name: "completed", provider: states(actor.Completed, nil), want: actor.Completed},
		{name: "blocked", provider: states(actor.Blocked, nil), want: actor.Blocked},
		{name: "failed", provider: states("", errors.New("supplier unreachable")), want: actor.Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			first, err := o.Process().RunAssignment(ctx, "asg-1", tc.provider)
			if err != nil || first.State != tc.want {
				t.Fatalf("first run of asg-1 = %v, %v; want %s", first.State, err, tc.want)
			}
			finished := o.Assignment("asg-1")
			b := o.Process()

			var invoked bool
			_, err = b.RunAssignment(ctx, "asg-1", complete(&invoked))
			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.AssignmentFinished),
				"process B's ordinary run of asg-1, which is %s, was not refused as finished", tc.want)
			assert.Check(t, !invoked, "process B's provider ran asg-1, which is already %s", tc.want)
			assert.Check(t, cmp.DeepEqual(o.Assignment("asg-1"), finished), "process B's refused run changed asg-1, which is %s", tc.want)

			l := actortest.Acquire(t, b, operator)
			before := o.State()
			_, err = b.AcquireAttempt(ctx, "asg-1", l)
			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.AssignmentFinished),
				"process B's attempt on asg-1, which is %s, under its own live lease (token %d) was not refused as finished", tc.want, l.Token)
			assert.Check(t, cmp.DeepEqual(o.State(), before), "process B's refused attempt changed the ledger; asg-1 is %s", tc.want)
		})
	}
}

// TestAttemptRefusalNamesTheFirstReason: when an attempt fails more than
// one check, the refusal names the first in this order: the assignment is
// finished, then the lease is lost, then an attempt from the same lease is
// already current. A caller that sees "finished" stops; one that sees
// "lease lost" acquires again; only "attempt held" means its own attempt
// is running.
func TestAttemptRefusalNamesTheFirstReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// presented returns the lease process A presents for an attempt on
		// asg-1, after putting the ledger in the state the case names.
		presented func(t *testing.T, o *actortest.Ledger, a *actor.Process) actor.Lease
		want      actor.Reason
	}{{
		name: "finished_and_lease_lost",
		presented: func(t *testing.T, o *actortest.Ledger, a *actor.Process) actor.Lease {
			run, err := a.RunAssignment(t.Context(), "asg-1", states(actor.Completed, nil))
			assert.NilError(t, err, "process A could not complete asg-1")
			return run.Lease // released when the run ended
		},
		want: actor.AssignmentFinished,
	}, {
		name: "lease_lost_and_attempt_held",
		presented: func(t *testing.T, o *actortest.Ledger, a *actor.Process) actor.Lease {
			l := actortest.Acquire(t, a, operator)
			_, err := a.AcquireAttempt(t.Context(), "asg-1", l)
			assert.NilError(t, err, "process A's first attempt on asg-1 was not granted")
			o.Clock.Set(l.ExpiresAt) // the lease that attempt came from is over
			return l
		},
		want: actor.ActorLeaseLost,
	}, {
		name: "attempt_held",
		presented: func(t *testing.T, o *actortest.Ledger, a *actor.Process) actor.Lease {
			l := actortest.Acquire(t, a, operator)
			_, err := a.AcquireAttempt(t.Context(), "asg-1", l)
			assert.NilError(t, err, "process A's first attempt on asg-1 was not granted")
			return l
		},
		want: actor.ExecutionAttemptHeld,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			l := tc.presented(t, o, a)

			before := o.State()
			_, err := a.AcquireAttempt(t.Context(), "asg-1", l)

			assert.Check(t, cmp.Equal(actortest.Reason(t, err), tc.want), "process A's attempt on asg-1 in the state %s", tc.name)
			assert.Check(t, cmp.DeepEqual(o.State(), before), "process A's refused attempt (%s) changed the ledger", tc.name)
		})
	}
}

// TestLeaseSpeaksOnlyForItsActor: process A holds the leases of two
// actors, the operator and operator-b. A lease is the actor it was
// acquired on and the token minted for it, together: another actor's
// lease, or one actor's name with the other's token, starts no attempt on
// the operator's asg-1 and releases nothing, and both leases are left as
// they were.
func TestLeaseSpeaksOnlyForItsActor(t *testing.T) {
	t.Parallel()
	const other = "operator-b"
	for _, tc := range []struct {
		name    string
		release bool // release the lease; otherwise start an attempt on asg-1 under it
		// mix builds the lease A presents from its two leases.
		mix func(mine, others actor.Lease) actor.Lease
	}{
		{name: "attempt_under_other_actors_lease", mix: func(_, others actor.Lease) actor.Lease { return others }},
		{name: "attempt_with_other_actors_token", mix: func(mine, others actor.Lease) actor.Lease { mine.Token = others.Token; return mine }},
		{name: "attempt_with_other_actors_name", mix: func(mine, others actor.Lease) actor.Lease { mine.Actor = others.Actor; return mine }},
		{name: "release_with_other_actors_name", release: true, mix: func(mine, others actor.Lease) actor.Lease { mine.Actor = others.Actor; return mine }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			mine, others := actortest.Acquire(t, a, operator), actortest.Acquire(t, a, other)
			presented := tc.mix(mine, others)

			before := o.State()
			var err error
			if tc.release {
				err = a.ReleaseLease(t.Context(), presented)
			} else {
				_, err = a.AcquireAttempt(t.Context(), "asg-1", presented)
			}

			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
				"process A presented a lease naming %s with token %d (its leases: %s token %d, %s token %d): a token spoke for an actor it was not minted for",
				presented.Actor, presented.Token, operator, mine.Token, other, others.Token)
			assert.Check(t, cmp.DeepEqual(o.State(), before), "the refused request (%s) changed the ledger", tc.name)
		})
	}
}

// TestAcquireTouchesOnlyItsActor: the operator's lease is free, and
// operator-b has a lease row that was released or has expired. Process B
// acquires the operator's lease: it wins, and operator-b's row is left
// exactly as it was. The compare-and-set must change one row, the
// operator's, or none.
func TestAcquireTouchesOnlyItsActor(t *testing.T) {
	t.Parallel()
	const other = "operator-b"
	for _, tc := range []struct {
		name    string
		release bool // A releases operator-b's lease; otherwise it expires
	}{
		{name: "other_released", release: true},
		{name: "other_expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			a, b := o.Process(), o.Process()
			o.Clock.Set(0)
			l := actortest.Acquire(t, a, other)
			if tc.release {
				assert.NilError(t, a.ReleaseLease(t.Context(), l), "process A could not release its lease on %s", other)
			}
			o.Clock.Set(20)
			untouched := o.CurrentLease(other)

			_, err := b.AcquireLease(t.Context(), operator)

			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actortest.Granted),
				"process B's acquire of the free lease of %s, while the lease of %s is %s", operator, other, strings.TrimPrefix(tc.name, "other_"))
			assert.Check(t, cmp.DeepEqual(o.CurrentLease(other), untouched),
				"process B's acquire of %s changed the lease of %s", operator, other)
		})
	}
}

// TestHeldRefusalNamesTheHolder: a refusal because the lease is held says
// which process holds it, in its Holder field and in its message, so an
// operator reading a log can find the process that has the actor.
func TestHeldRefusalNamesTheHolder(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	a, b := o.Process(), o.Process()
	actortest.Acquire(t, a, operator)

	_, err := b.AcquireLease(t.Context(), operator)

	var r *actor.Refusal
	assert.Assert(t, errors.As(err, &r), "process B's acquire while A holds the lease = %v; want a refusal", err)
	assert.Check(t, cmp.Equal(r.Holder, a.ID()), "the refusal's holder")
	assert.Check(t, strings.Contains(err.Error(), a.ID()), "the refusal %q does not name the holding process %s", err, a.ID())
}
