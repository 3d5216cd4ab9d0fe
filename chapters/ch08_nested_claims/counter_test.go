package nestedclaims

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/actor/actortest"
	"github.com/fencelab/fencelab/internal/mailbox"
)

// TestActorLeaseAndMailboxTokensShareOneCounter: mailbox claims, actor
// leases and execution attempts draw from the one lease_tokens counter, so
// every token is strictly greater than every token minted before it,
// whatever kind of claim minted either.
func TestActorLeaseAndMailboxTokensShareOneCounter(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	db := o.Connect()
	assert.NilError(t, mailbox.CreateSchema(ctx, db), "could not add the mailbox's tables to the actor ledger")
	box := mailbox.Open(db, o.Clock, mailbox.NoLease)
	for _, id := range []string{"msg-1", "msg-2", "msg-3"} {
		assert.NilError(t, box.Add(ctx, id, "Restock vanilla"), "could not add %s to the mailbox", id)
	}
	a := o.Process()

	var minted []int64 // every token, in the order it was minted
	var kinds []string
	record := func(kind string, tok int64) {
		minted, kinds = append(minted, tok), append(kinds, kind)
	}
	for _, id := range []string{"msg-1", "msg-2"} {
		c, err := box.Claim(ctx, id, "worker-a")
		assert.NilError(t, err, "worker-a's claim of %s was not granted", id)
		record("mailbox claim "+id, c.Token)
	}
	l := actortest.Acquire(t, a, operator)
	record("actor lease", l.Token)
	att, err := a.AcquireAttempt(ctx, "asg-1", l)
	assert.NilError(t, err, "process A's attempt on asg-1 was not granted")
	record("execution attempt", att.Token)
	c, err := box.Claim(ctx, "msg-3", "worker-a")
	assert.NilError(t, err, "worker-a's claim of msg-3 was not granted")
	record("mailbox claim msg-3", c.Token)

	for i := 1; i < len(minted); i++ {
		assert.Assert(t, minted[i] > minted[i-1],
			"%s token %d is not greater than %s token %d minted before it: tokens of different kinds no longer share one order",
			kinds[i], minted[i], kinds[i-1], minted[i-1])
	}
}
