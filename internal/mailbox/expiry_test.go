package mailbox_test

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestLeaseNearTheEndOfTimeIsClamped: a claim whose lease would end past
// the largest time is granted, its lease clamped to end at the largest
// time. It is held until then (a challenger one tick before is refused),
// and it ends then, like any lease, on its last tick.
func TestLeaseNearTheEndOfTimeIsClamped(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	a, b := l.Mailbox(15), l.Mailbox(15)
	l.Clock.Set(math.MaxInt64 - 1)

	c := mailboxtest.Claim(t, a, "msg-1", "worker-a")

	assert.Equal(t, c.ExpiresAt, int64(math.MaxInt64), "expiry of a 15-minute lease taken one tick before the largest time")
	_, err := b.Claim(t.Context(), "msg-1", "worker-b")
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.LeaseHeld, "worker-b's claim while worker-a's clamped lease runs")
	l.Clock.Set(math.MaxInt64)
	_, err = b.Claim(t.Context(), "msg-1", "worker-b")
	assert.Equal(t, mailboxtest.Reason(t, err), mailboxtest.Accepted, "worker-b's claim on the tick the clamped lease ends")
}
