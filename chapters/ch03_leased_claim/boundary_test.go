package leasedclaim

// These tests hold what the owner's side of a lease must agree with: the
// takeover's end of the lease (TestLeaseIsOverAtItsExpiryMinute tests both
// sides of that minute), and the state. A mistake on the owner's side is
// the one that lets two workers believe at once.

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestAtTheExpiryMinuteOnlyOneWorkerBelieves: at minute 15, when
// worker-a's lease ends, worker-a claims and then worker-b claims. However
// the two are ordered, only one of them may leave believing it owns msg-2:
// if worker-a were handed its old token as a renewal, the row would still
// say the lease ends at 15 and worker-b's takeover would win too.
func TestAtTheExpiryMinuteOnlyOneWorkerBelieves(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	first := mailboxtest.Claim(t, box, "msg-2", "worker-a")
	l.Clock.Set(first.ExpiresAt)

	a, errA := box.Claim(t.Context(), "msg-2", "worker-a")
	_, errB := box.Claim(t.Context(), "msg-2", "worker-b")

	believers := 0
	for _, err := range []error{errA, errB} {
		if mailboxtest.Reason(t, err) == mailboxtest.Accepted {
			believers++
		}
	}
	assert.Equal(t, believers, 1, "workers believing they own msg-2 after both claimed at minute %d (worker-a got token %d, renewed %v; worker-b: %v)",
		first.ExpiresAt, a.Token, a.Renewed, errB)
	assert.Equal(t, mailboxtest.Reason(t, errB), mailbox.LeaseHeld, "worker-b at minute %d, after worker-a began a new generation", first.ExpiresAt)
	msg := l.Get("msg-2")
	assert.Equal(t, msg.Owner, "worker-a", "owner on disk at minute %d", first.ExpiresAt)
	assert.Equal(t, msg.Token, a.Token, "the token on disk is the one worker-a believes in")
}

// TestCompletedMessageCannotBeRenewedByItsLastOwner: worker-a completes
// msg-2 at minute 5, inside its lease. A claim by worker-a at minute 6 is
// not a renewal of a lease that still has time on it: DONE is final, and
// the claim is refused.
func TestCompletedMessageCannotBeRenewedByItsLastOwner(t *testing.T) {
	t.Parallel()
	l, box := newMsg2(t)
	c := mailboxtest.Claim(t, box, "msg-2", "worker-a")
	l.Clock.Set(5)
	assert.NilError(t, box.Complete(t.Context(), "msg-2", "worker-a", c.Token), "worker-a completes msg-2 at minute 5")

	l.Clock.Set(6)
	again, err := box.Claim(t.Context(), "msg-2", "worker-a")

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable,
		"worker-a's claim at minute 6 of msg-2 it completed at 5 (lease until %d) returned token %d, renewed %v; want refused not_claimable",
		c.ExpiresAt, again.Token, again.Renewed)
	assert.Equal(t, l.Get("msg-2").State, mailbox.Done, "state of msg-2 after its last owner tried to claim it again")
}
