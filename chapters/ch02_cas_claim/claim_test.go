// Package casclaim is chapter 2: the one-statement compare-and-set claim,
// and completion under the token the claim returned.
package casclaim

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailboxtest"
)

var ctx = context.Background()

// TestOneOfTwoConnectionsWinsTheClaim: two workers on separate connections
// claim the same NEW message; the compare-and-set lets exactly one win and
// refuses the other as not claimable.
func TestOneOfTwoConnectionsWinsTheClaim(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	a, b := l.Mailbox(mailbox.NoLease), l.Mailbox(mailbox.NoLease)

	won := mailboxtest.Claim(t, a, "msg-1", "worker-a")
	_, err := b.Claim(ctx, "msg-1", "worker-b")

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable,
		"worker-b's claim after worker-a won: want it refused as not claimable, or two workers own msg-1")
	msg := l.Get("msg-1")
	assert.Check(t, cmp.Equal(msg.Owner, "worker-a"), "owner on disk")
	assert.Check(t, cmp.Equal(msg.Token, won.Token), "token on disk is not the one worker-a was handed")
}

// TestTokenNeverIssuedCannotComplete: completing with a token the worker
// was never issued is refused as stale and leaves the message claimed.
func TestTokenNeverIssuedCannotComplete(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")

	forged := won.Token + 98
	err := box.Complete(ctx, "msg-1", "worker-a", forged)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"Complete(msg-1, token %d) with a token never issued (worker-a holds %d): want refused stale_token", forged, won.Token)
	assert.Equal(t, l.Get("msg-1").State, mailbox.Claimed, "a refused completion must change nothing")
}

// TestHolderCompletesWithItsOwnToken: the token the claim returned
// completes the message.
func TestHolderCompletesWithItsOwnToken(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")

	err := box.Complete(ctx, "msg-1", "worker-a", won.Token)

	assert.NilError(t, err, "Complete(msg-1, token %d) by its holder", won.Token)
	assert.Equal(t, l.Get("msg-1").State, mailbox.Done)
}

// TestRefusedClaimBurnsNoToken: the token is minted in the same
// transaction as the compare-and-set, so a refused claim rolls its mint
// back and the counter does not move.
func TestRefusedClaimBurnsNoToken(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	mailboxtest.Claim(t, l.Mailbox(mailbox.NoLease), "msg-1", "worker-a")
	before := l.Minted()

	_, err := l.Mailbox(mailbox.NoLease).Claim(ctx, "msg-1", "worker-b")

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable)
	assert.Equal(t, l.Minted(), before,
		"tokens minted after a refused claim; want the mint rolled back with the refusal")
}
