package nestedclaims

// This file holds the tests of a lease presented by a process that did not
// acquire it. A token is a small integer anyone can read from the ledger;
// knowing it must not make the lease yours.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestForeignLeaseTokenCannotStartAttempt: process A holds the operator's
// lease. Process B reads that lease from the ledger and presents it to
// start an attempt on asg-1. The token is the current one, but the lease is
// A's, not B's: the attempt is refused and nothing is recorded.
func TestForeignLeaseTokenCannotStartAttempt(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()
	held := actortest.Acquire(t, a, operator)

	foreign, err := b.CurrentLease(ctx, operator)
	assert.NilError(t, err, "process B could not read the operator's lease")
	_, err = b.AcquireAttempt(ctx, "asg-1", foreign)

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
		"process B's attempt on asg-1 under process A's lease token %d was not refused: a token anyone can read made the lease B's",
		held.Token)
	assert.Check(t, cmp.Equal(o.Assignment("asg-1").AttemptID, ""),
		"process B's attempt under process A's lease was recorded on asg-1")
}

// TestForeignLeaseTokenCannotReleaseLease: process A holds the operator's
// lease. Process B reads it from the ledger and presents it to release it.
// Only the process holding a lease may release it: refused, and A's lease
// is left exactly as it was.
func TestForeignLeaseTokenCannotReleaseLease(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	o := actortest.New(t, leaseMinutes)
	a, b := o.Process(), o.Process()
	held := actortest.Acquire(t, a, operator)

	foreign, err := b.CurrentLease(ctx, operator)
	assert.NilError(t, err, "process B could not read the operator's lease")
	err = b.ReleaseLease(ctx, foreign)

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
		"process B's release of process A's lease (token %d) was not refused: a token anyone can read let B free A's lease",
		held.Token)
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), held),
		"process B's release changed process A's lease on the operator while A still works under it")
}
