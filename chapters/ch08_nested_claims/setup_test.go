package nestedclaims

// This file holds what setting the actor ledger up again must leave alone:
// a process that starts, or a deploy script, runs CreateSchema on a
// ledger other processes are using.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestSettingUpAgainKeepsEveryLeaseAndAssignment: process A holds the
// operator's lease and has an attempt on asg-1; asg-2 has finished, when
// actor.CreateSchema runs again on the same file. Every lease, assignment
// and line of the attempts log reads back as before, A's lease still
// holds B off, and A's next attempt gets a token greater than every token
// issued before.
func TestSettingUpAgainKeepsEveryLeaseAndAssignment(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1", "asg-2", "asg-3")
	a, b := o.Process(), o.Process()
	var invoked bool
	_, err := a.RunAssignment(t.Context(), "asg-2", complete(&invoked))
	assert.NilError(t, err, "set-up: process A runs asg-2 to the end")
	held := actortest.Acquire(t, a, operator)
	_, err = a.AcquireAttempt(t.Context(), "asg-1", held)
	assert.NilError(t, err, "set-up: process A's attempt on asg-1")
	before := o.State()

	assert.NilError(t, actor.CreateSchema(t.Context(), o.Connect()), "setting the actor ledger up again while it is in use")

	assert.Check(t, cmp.DeepEqual(o.State(), before), "the ledger after it was set up again: want every lease, assignment and attempt exactly as before")
	_, err = b.AcquireLease(t.Context(), operator)
	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseHeld), "process B's acquire after the set-up, while A's lease runs")
	next, err := a.AcquireAttempt(t.Context(), "asg-3", held)
	assert.NilError(t, err, "process A's attempt on asg-3 after the set-up, under its lease")
	assert.Check(t, next.Token > before.Minted,
		"process A's attempt after the set-up got token %d; want greater than %d, the newest issued before", next.Token, before.Minted)
}
