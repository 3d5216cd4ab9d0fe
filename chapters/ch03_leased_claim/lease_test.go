// Package leasedclaim is chapter 3: claims that expire, a same-owner retry
// that keeps its token, and a takeover that mints a fresh one.
package leasedclaim

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/runner/mailboxlab"
)

// lease is the chapter's lease length, in logical minutes: the one
// `fencelab lease` runs with.
const lease = mailboxlab.LeaseMinutes

// newMsg2 returns a ledger holding msg-2 and one mailbox on it with
// 15-minute leases; the ledger's clock starts at minute 0.
func newMsg2(t testing.TB) (*mailboxtest.Ledger, *mailbox.Mailbox) {
	t.Helper()
	l := mailboxtest.New(t)
	l.Add("msg-2", "Order cones")
	return l, l.Mailbox(lease)
}

// TestRetryInsideLeaseKeepsToken: worker-a claims at minute 0 and again at
// minute 5; the second claim is the same generation, so it returns the same
// token and mints nothing.
func TestRetryInsideLeaseKeepsToken(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	first := mailboxtest.Claim(t, box, "msg-2", "worker-a")
	minted := l.Minted()

	l.Clock.Set(5)
	again, err := box.Claim(t.Context(), "msg-2", "worker-a")

	assert.NilError(t, err, "worker-a's retry at minute 5 inside its own lease")

	assert.Equal(t, again.Token, first.Token, "worker-a's retry at minute 5 inside its own lease: want the same token")
	assert.Assert(t, again.Renewed, "a retry inside the lease must say it kept the lease")
	assert.Equal(t, again.ExpiresAt, first.ExpiresAt, "a retry keeps the lease; it does not extend it")
	assert.Equal(t, l.Minted(), minted, "tokens minted by a retry inside the lease")
}

// TestContenderRefusedWhileLeaseLive: worker-b at minute 10 is refused, and
// told who holds the lease: in the refusal's Holder, and in its message,
// which is what a log line shows a person.
func TestContenderRefusedWhileLeaseLive(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	mailboxtest.Claim(t, box, "msg-2", "worker-a")

	l.Clock.Set(10)
	_, err := box.Claim(t.Context(), "msg-2", "worker-b")

	var r *mailbox.Refusal
	assert.Assert(t, errors.As(err, &r), "Claim(msg-2, worker-b) at minute 10, inside worker-a's lease = %v; want a refusal", err)
	assert.Equal(t, r.Reason, mailbox.LeaseHeld, "why worker-b was refused at minute 10")
	assert.Equal(t, r.Holder, "worker-a", "holder named in the refusal")
	assert.Assert(t, strings.Contains(err.Error(), "worker-a"), "message of worker-b's refusal, %q: want it to name the holder, worker-a", err)
	assert.Equal(t, l.Get("msg-2").Owner, "worker-a", "owner on disk after the refused claim")
}

// TestTakeoverAfterExpiryMintsGreaterToken: worker-b at minute 20, after
// worker-a's lease ran out at 15, takes over with a strictly greater token.
func TestTakeoverAfterExpiryMintsGreaterToken(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	a := mailboxtest.Claim(t, box, "msg-2", "worker-a")

	l.Clock.Set(20)
	b := mailboxtest.Claim(t, box, "msg-2", "worker-b")

	assert.Assert(t, b.Token > a.Token, "worker-b's takeover token %d; want greater than worker-a's %d", b.Token, a.Token)
	assert.Equal(t, b.ExpiresAt, int64(20+lease), "worker-b's lease expiry")
	msg := l.Get("msg-2")
	assert.Equal(t, msg.Owner, "worker-b", "owner on disk after the takeover")
	assert.Equal(t, msg.Token, b.Token, "token on disk after the takeover")
}

// TestStaleHolderCannotCompleteAfterTakeover: worker-a never crashed; it
// stalled past its lease, worker-b took over, and now worker-a presents
// the token its own claim returned. Refused; worker-b's token completes.
func TestStaleHolderCannotCompleteAfterTakeover(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l, box := newMsg2(t)
	a := mailboxtest.Claim(t, box, "msg-2", "worker-a")
	l.Clock.Set(20)
	b := mailboxtest.Claim(t, box, "msg-2", "worker-b")

	l.Clock.Set(25)
	err := box.Complete(ctx, "msg-2", "worker-a", a.Token)
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"stale token %d completed msg-2 after token %d was issued to worker-b", a.Token, b.Token)
	assert.Equal(t, l.Get("msg-2").State, mailbox.Claimed, "state after the stale completion")

	assert.NilError(t, box.Complete(ctx, "msg-2", "worker-b", b.Token), "the current holder's completion")
	assert.Equal(t, l.Get("msg-2").State, mailbox.Done, "state after worker-b completed with its own token %d", b.Token)
}

// TestLapsedHolderCompletesWhenNobodyTookOver: the fence is the token, not
// the clock. worker-a's lease ran out at 15 but nobody claimed msg-2, so
// worker-a's token is still the current generation and its completion at
// minute 40 stands.
func TestLapsedHolderCompletesWhenNobodyTookOver(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	a := mailboxtest.Claim(t, box, "msg-2", "worker-a")

	l.Clock.Set(40)
	err := box.Complete(t.Context(), "msg-2", "worker-a", a.Token)

	assert.Equal(t, mailboxtest.Reason(t, err), mailboxtest.Accepted,
		"worker-a completing at minute 40 with token %d, still the current generation (lease lapsed at 15, no takeover)", a.Token)
	assert.Equal(t, l.Get("msg-2").State, mailbox.Done, "state after worker-a's completion at minute 40")
}

// TestOwnExpiredLeaseIsANewGeneration: worker-a's lease lapses and nobody
// else claims; when worker-a claims again it gets a fresh, greater token,
// and its old token can no longer complete.
func TestOwnExpiredLeaseIsANewGeneration(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	first := mailboxtest.Claim(t, box, "msg-2", "worker-a")

	l.Clock.Set(16)
	second := mailboxtest.Claim(t, box, "msg-2", "worker-a")

	assert.Assert(t, second.Token > first.Token,
		"worker-a's claim at minute 16 after its own lease expired at 15 returned token %d; want greater than %d", second.Token, first.Token)
	assert.Assert(t, !second.Renewed, "a claim after expiry must not be reported as a renewal")
	err := box.Complete(t.Context(), "msg-2", "worker-a", first.Token)
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"the first generation's token %d completed msg-2 after generation %d began", first.Token, second.Token)
}

// TestLeaseIsOverAtItsExpiryMinute: a lease until 15 is over at minute 15
// for everyone. The challenger, worker-b, is refused at 14 and takes over at
// exactly 15; the holder, worker-a, gets its own token back at 14 and at 15
// a new generation, like anyone else.
func TestLeaseIsOverAtItsExpiryMinute(t *testing.T) {
	t.Parallel()
	t.Run("Challenger", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		l, box := newMsg2(t)
		a := mailboxtest.Claim(t, box, "msg-2", "worker-a")

		l.Clock.Set(14)
		_, err := box.Claim(ctx, "msg-2", "worker-b")
		assert.Equal(t, mailboxtest.Reason(t, err), mailbox.LeaseHeld, "worker-b at minute 14, one before expiry")

		l.Clock.Set(15)
		_, err = box.Claim(ctx, "msg-2", "worker-b")
		assert.Equal(t, mailboxtest.Reason(t, err), mailboxtest.Accepted,
			"worker-b at minute 15, when worker-a's lease (expires_at %d) is over: want a takeover", a.ExpiresAt)
	})
	t.Run("Holder", func(t *testing.T) {
		t.Parallel()
		l, box := newMsg2(t)
		a := mailboxtest.Claim(t, box, "msg-2", "worker-a")

		l.Clock.Set(14)
		at14 := mailboxtest.Claim(t, box, "msg-2", "worker-a")
		assert.Assert(t, at14.Renewed && at14.Token == a.Token,
			"worker-a at minute 14, one before its own lease's expiry, got token %d (renewed: %t); want its own token %d back",
			at14.Token, at14.Renewed, a.Token)

		l.Clock.Set(15)
		at15 := mailboxtest.Claim(t, box, "msg-2", "worker-a")
		assert.Assert(t, !at15.Renewed && at15.Token > a.Token,
			"worker-a at minute 15, when its own lease (expires_at %d) is over, got token %d (renewed: %t); want a new generation, greater than %d",
			a.ExpiresAt, at15.Token, at15.Renewed, a.Token)
		assert.Equal(t, at15.ExpiresAt, a.ExpiresAt+lease, "the new generation's lease runs a full %d minutes from minute 15", lease)
		msg := l.Get("msg-2")
		assert.Equal(t, msg.Token, at15.Token, "token on disk after worker-a's new generation at minute 15")
		assert.Equal(t, msg.ExpiresAt, at15.ExpiresAt, "lease expiry on disk after worker-a's new generation at minute 15")
	})
}

// TestShortestLeaseEndsAfterOneMinute: a lease of one minute is a lease,
// not a claim without one. worker-a's claim at minute 0 expires at 1;
// worker-b is refused at minute 0, one before the end, and takes over at
// exactly minute 1.
func TestShortestLeaseEndsAfterOneMinute(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-2", "Order cones")
	box := l.Mailbox(1)

	a := mailboxtest.Claim(t, box, "msg-2", "worker-a")

	assert.Assert(t, a.Expires && a.ExpiresAt == 1,
		"worker-a's one-minute claim at minute 0 expires %t, at minute %d; want it to expire at minute 1", a.Expires, a.ExpiresAt)
	_, err := box.Claim(t.Context(), "msg-2", "worker-b")
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.LeaseHeld, "worker-b at minute 0, inside worker-a's one-minute lease")
	l.Clock.Set(1)
	_, err = box.Claim(t.Context(), "msg-2", "worker-b")
	assert.Equal(t, mailboxtest.Reason(t, err), mailboxtest.Accepted, "worker-b at minute 1, when worker-a's one-minute lease is over: want a takeover")
}
