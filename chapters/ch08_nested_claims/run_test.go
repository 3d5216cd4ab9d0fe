package nestedclaims

import (
	"context"
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestActorLeaseBlocksSecondAssignmentBeforeProviderRuns: while process A
// runs asg-1 for the operator, process B runs asg-2, a different assignment
// of the same actor, through the same ordinary path. B is refused before
// anything happens: its provider is never invoked and asg-2 stays CREATED.
func TestActorLeaseBlocksSecondAssignmentBeforeProviderRuns(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1", "asg-2")
	a, b := o.Process(), o.Process()

	var bErr error
	var bInvoked bool
	runA, err := a.RunAssignment(t.Context(), "asg-1", func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
		_, bErr = b.RunAssignment(ctx, "asg-2", complete(&bInvoked))
		return actor.Completed, nil
	})
	assert.Check(t, cmp.Nil(err), "process A, holding the operator's lease, could not complete asg-1")
	assert.Check(t, cmp.Equal(runA.State, actor.Completed), "process A, holding the operator's lease, ended asg-1 %s", runA.State)

	assert.Check(t, cmp.Equal(actortest.Reason(t, bErr), actor.ActorLeaseHeld),
		"process B's run of asg-2 while process A holds the operator's lease was not refused as held")
	assert.Check(t, !bInvoked, "process B's provider was invoked for asg-2 while process A held the operator's lease")
	got := o.Assignment("asg-2")
	assert.Check(t, cmp.Equal(got.State, actor.Created), "process B's refused run moved asg-2 to %s; it must never reach RUNNING", got.State)
	assert.Check(t, cmp.Equal(got.AttemptID, ""), "process B's refused run recorded an attempt on asg-2")
}

// TestOrdinaryPathCannotBypassActorLease: however the operator's lease is
// held, RunAssignment goes through AcquireLease and is refused; the
// holder's lease is left exactly as it was.
func TestOrdinaryPathCannotBypassActorLease(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()
	held := actortest.Acquire(t, a, operator)

	var invoked bool
	_, err := b.RunAssignment(t.Context(), "asg-1", complete(&invoked))

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseHeld),
		"process B's ordinary run of asg-1 while process A holds the operator's lease (token %d) was not refused as held", held.Token)
	assert.Check(t, !invoked, "process B's provider ran asg-1 under process A's lease: the ordinary path went around the actor lease")
	got := o.Assignment("asg-1").State
	assert.Check(t, cmp.Equal(got, actor.Created), "process B's refused run moved asg-1 to %s; it must never reach RUNNING", got)
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), held), "process B's refused run changed process A's lease on the operator")
}

// TestLeaseReleasedOnEveryRefusalPath: whichever way RunAssignment ends,
// refused, failed, blocked, completed, panicking or cancelled, the
// operator's lease is free afterwards and the next process acquires it at
// once. A leak on any path would strand the actor until its lease expired.
func TestLeaseReleasedOnEveryRefusalPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		before   func(t *testing.T, o *actortest.Ledger) // optional set-up
		provider actor.Provider
		cancel   bool // the provider cancels the run's context
	}{{
		name:     "completed",
		provider: states(actor.Completed, nil),
	}, {
		name:     "blocked",
		provider: states(actor.Blocked, nil),
	}, {
		name:     "provider_failed",
		provider: states("", errors.New("supplier unreachable")),
	}, {
		name:     "provider_panicked",
		provider: func(context.Context, actor.Assignment) (actor.State, error) { panic("provider crashed") },
	}, {
		name:     "context_cancelled",
		provider: states(actor.Completed, nil),
		cancel:   true,
	}, {
		name: "assignment_finished",
		before: func(t *testing.T, o *actortest.Ledger) {
			run, err := o.Process().RunAssignment(t.Context(), "asg-1", states(actor.Completed, nil))
			if err != nil || run.State != actor.Completed {
				t.Fatalf("first run of asg-1 = %v, %v; want COMPLETED", run.State, err)
			}
		},
		provider: states(actor.Completed, nil),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			if tc.before != nil {
				tc.before(t, o)
			}
			p := o.Process()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			provider := tc.provider
			if tc.cancel {
				provider = func(ctx context.Context, asg actor.Assignment) (actor.State, error) {
					cancel() // the caller gives up while the provider works
					return tc.provider(ctx, asg)
				}
			}
			run := runRecovering(ctx, p, "asg-1", provider)

			left := o.CurrentLease(operator)
			assert.Check(t, cmp.Equal(left.Holder, ""),
				"after a run that ended %s, the operator's lease is still held (token %d, until minute %d): the actor is stranded",
				run, left.Token, left.ExpiresAt)
			_, err := o.Process().AcquireLease(t.Context(), operator)
			assert.Check(t, cmp.Equal(actortest.Reason(t, err), actortest.Granted),
				"the next process could not acquire the operator's lease after a run that ended %s", run)
		})
	}
}

// states is a provider that answers state and err.
func states(state actor.State, err error) actor.Provider {
	return func(context.Context, actor.Assignment) (actor.State, error) { return state, err }
}

// runRecovering runs id and describes how the run ended: the refusal
// reason, the terminal state, or "panic".
func runRecovering(ctx context.Context, p *actor.Process, id string, provider actor.Provider) (ended string) {
	defer func() {
		if recover() != nil {
			ended = "panic"
		}
	}()
	run, err := p.RunAssignment(ctx, id, provider)
	if r, ok := actor.ReasonOf(err); ok {
		return "refused " + string(r)
	}
	if err != nil {
		return "error " + err.Error()
	}
	return string(run.State)
}

// TestProviderAnswerIsTheTerminalState: the provider's answer lands as
// asg-1's terminal state. COMPLETED and BLOCKED land as they are; an error
// lands as FAILED with the error kept as the run's failure; any other
// state, even one that is not terminal, lands as FAILED too, so a provider
// can never leave an assignment RUNNING or send it back to CREATED.
func TestProviderAnswerIsTheTerminalState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		provider    actor.Provider
		want        actor.State
		wantFailure bool
	}{
		{name: "completed", provider: states(actor.Completed, nil), want: actor.Completed},
		{name: "blocked", provider: states(actor.Blocked, nil), want: actor.Blocked},
		{name: "error", provider: states(actor.Completed, errors.New("supplier unreachable")), want: actor.Failed, wantFailure: true},
		{name: "failed", provider: states(actor.Failed, nil), want: actor.Failed, wantFailure: true},
		{name: "running", provider: states(actor.Running, nil), want: actor.Failed, wantFailure: true},
		{name: "created", provider: states(actor.Created, nil), want: actor.Failed, wantFailure: true},
		{name: "empty", provider: states("", nil), want: actor.Failed, wantFailure: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")

			run, err := o.Process().RunAssignment(t.Context(), "asg-1", tc.provider)

			assert.NilError(t, err, "process A's run of asg-1 whose provider answered %s", tc.name)
			assert.Check(t, cmp.Equal(run.State, tc.want), "the run's state after the provider answered %s", tc.name)
			assert.Check(t, cmp.Equal(o.Assignment("asg-1").State, tc.want), "asg-1 as committed after the provider answered %s", tc.name)
			assert.Check(t, cmp.Equal(run.Failure != "", tc.wantFailure), "the run's failure %q after the provider answered %s", run.Failure, tc.name)
		})
	}
}

// TestCompletedRunIgnoresATakeoverBeforeItsRelease: process A completes
// asg-1, then stalls just before giving its lease back; the lease runs out
// and process B takes the operator over. A's release is refused, because
// the lease is no longer A's to give back: the run still reports the
// COMPLETED it committed, and B's lease is left alone.
func TestCompletedRunIgnoresATakeoverBeforeItsRelease(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()

	var taken actor.Lease
	a.PauseBeforeTransactions(func() {
		// Act once, before the release: asg-1 is COMPLETED and A still
		// holds the lease.
		if taken.Token != 0 || o.Assignment("asg-1").State != actor.Completed || o.CurrentLease(operator).Holder != a.ID() {
			return
		}
		o.Clock.Set(atExpiry)
		taken = actortest.Acquire(t, b, operator)
	})
	o.Clock.Set(0)
	run, err := a.RunAssignment(t.Context(), "asg-1", states(actor.Completed, nil))

	assert.Assert(t, taken.Token != 0, "process B never took over: process A began no transaction after completing asg-1")
	assert.Check(t, err == nil, "process A's run completed asg-1, yet reports failing (%v) because B took the lease over before A could release it", err)
	assert.Check(t, cmp.Equal(run.State, actor.Completed), "process A's run state")
	assert.Check(t, cmp.Equal(o.Assignment("asg-1").State, actor.Completed), "asg-1 as committed")
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), taken), "process A's way out changed process B's lease on the operator")
}
