package nestedclaims

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestActorLeaseIsACompareAndSet: while process A holds the operator's
// lease, process B (acting for the same actor) is refused; once A
// releases, the lease is free (no holder, no expiry, the last token kept)
// and B acquires with a strictly greater token.
func TestActorLeaseIsACompareAndSet(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	o := actortest.New(t, leaseMinutes)
	a, b := o.Process(), o.Process()

	la := actortest.Acquire(t, a, operator)
	_, err := b.AcquireLease(ctx, operator)
	assert.Equal(t, actortest.Reason(t, err), actor.ActorLeaseHeld,
		"process B's acquire of %s while process A holds it: two processes both believe they are the operator", operator)

	assert.NilError(t, a.ReleaseLease(ctx, la), "process A could not release its own lease")
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), actor.Lease{Actor: operator, Token: la.Token}),
		"the operator's lease as committed after process A released it: want no holder, no expiry, the last token kept")
	lb := actortest.Acquire(t, b, operator)
	assert.Assert(t, lb.Token > la.Token,
		"process B's lease token %d after A released token %d; want strictly greater", lb.Token, la.Token)
	assert.Equal(t, o.CurrentLease(operator).Holder, b.ID(), "process B acquired the operator's lease, yet the ledger names another holder")
}
