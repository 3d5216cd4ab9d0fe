package leasedclaim

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestLeaseNearTheEndOfTimeIsClamped: minutes are an int64, so a lease
// taken near the largest one would end past it. The end is clamped to the
// largest minute instead of wrapping into the distant past, where the
// lease would be over the moment it was granted: worker-a holds msg-2
// until the last minute, and worker-b is refused before then.
func TestLeaseNearTheEndOfTimeIsClamped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		lease, now int64
		// stillHeld: the lease ends after now, so worker-b, claiming at
		// now, must be refused
		stillHeld bool
	}{
		{"fifteen-minutes-one-before-the-end", 15, math.MaxInt64 - 1, true},
		{"one-minute-at-the-end", 1, math.MaxInt64, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			l.Add("msg-2", "Order cones")
			a, b := l.Mailbox(tc.lease), l.Mailbox(tc.lease)
			l.Clock.Set(tc.now)

			c := mailboxtest.Claim(t, a, "msg-2", "worker-a")

			assert.Equal(t, c.ExpiresAt, int64(math.MaxInt64),
				"end of worker-a's %d-minute lease taken at minute %d: want the largest minute, not a wrapped one", tc.lease, tc.now)
			if tc.stillHeld {
				_, err := b.Claim(t.Context(), "msg-2", "worker-b")
				assert.Equal(t, mailboxtest.Reason(t, err), mailbox.LeaseHeld,
					"worker-b's claim at minute %d, inside worker-a's clamped lease", tc.now)
			}
		})
	}
}
