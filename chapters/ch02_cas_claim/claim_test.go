// Package casclaim is chapter 2: the one-statement compare-and-set claim,
// and completion under the token the claim returned.
package casclaim

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestTokenNeverIssuedCannotComplete: completing with a token the worker
// was never issued is refused as stale and leaves the message claimed.
func TestTokenNeverIssuedCannotComplete(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")

	forged := won.Token + 98
	err := box.Complete(t.Context(), "msg-1", "worker-a", forged)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"Complete(msg-1, token %d) with a token never issued (worker-a holds %d): want refused stale_token", forged, won.Token)
	assert.Equal(t, l.Get("msg-1").State, mailbox.Claimed, "a refused completion must change nothing")
}

// TestNewerTokenThanIssuedCannotComplete: a token is an exact generation,
// not a lower bound. A larger number than the one issued is just as wrong
// as a smaller one.
func TestNewerTokenThanIssuedCannotComplete(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	l.Add("msg-2", "Order cones")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")
	newer := mailboxtest.Claim(t, box, "msg-2", "worker-a").Token

	err := box.Complete(t.Context(), "msg-1", "worker-a", newer)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"Complete(msg-1, token %d) where msg-1 was issued token %d: want refused stale_token", newer, won.Token)
	assert.Equal(t, l.Get("msg-1").State, mailbox.Claimed, "a refused completion must change nothing")
}

// TestHoldersTokenDoesNotCompleteForAnotherWorker: the completion names its
// owner too; worker-b holding a copy of worker-a's token cannot finish
// worker-a's message.
func TestHoldersTokenDoesNotCompleteForAnotherWorker(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")

	err := box.Complete(t.Context(), "msg-1", "worker-b", won.Token)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"Complete(msg-1, worker-b, worker-a's token %d): want refused stale_token", won.Token)
	assert.Equal(t, l.Get("msg-1").State, mailbox.Claimed, "a refused completion must change nothing")
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

	_, err := l.Mailbox(mailbox.NoLease).Claim(t.Context(), "msg-1", "worker-b")

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable,
		"Claim(msg-1, worker-b) while worker-a owns it: want refused not_claimable")
	assert.Equal(t, l.Minted(), before,
		"tokens minted after a refused claim; want the mint rolled back with the refusal")
}
