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
// refused, failed, blocked, completed or panicking, the operator's lease is
// free afterwards and the next process acquires it at once. A leak on any
// path would strand the actor until its lease expired.
func TestLeaseReleasedOnEveryRefusalPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		before   func(t *testing.T, o *actortest.Ledger) // optional set-up
		provider actor.Provider
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
			run := runRecovering(t.Context(), p, "asg-1", tc.provider)

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
