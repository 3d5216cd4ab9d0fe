package nestedclaims

// This file repeats the call that ends a lease with the very lease that
// already ended it: a process that retries a release it does not know
// landed must be told the lease is gone, and change nothing.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestReleasingTwiceWithTheSameLeaseIsRefusedAsLost: process A releases
// the operator's lease, then releases it again under the same lease and
// token. A no longer holds it, so the repeat is refused actor_lease_lost,
// and the ledger is left as the first release left it: the lease free,
// its last token kept.
func TestReleasingTwiceWithTheSameLeaseIsRefusedAsLost(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	a := o.Process()
	la := actortest.Acquire(t, a, operator)
	assert.NilError(t, a.ReleaseLease(t.Context(), la), "set-up: process A's first release")
	released := o.State()

	err := a.ReleaseLease(t.Context(), la)

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
		"process A's second release of %s under the same token %d; want refused actor_lease_lost", operator, la.Token)
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), actor.Lease{Actor: operator, Token: la.Token}),
		"the operator's lease after the repeated release; want no holder, no expiry, token %d kept", la.Token)
	assert.Check(t, cmp.DeepEqual(o.State(), released), "the repeated release changed the ledger")
}
