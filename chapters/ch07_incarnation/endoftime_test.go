package incarnation

// This file holds the session's two leases at the end of time: minutes
// are an int64, and a lease taken near the largest one would end past it.

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// TestLeasesNearTheEndOfTimeAreClamped: kiosk-a renews its host lease and
// claims sess-1 one minute before the largest minute. Both leases end at
// the largest minute instead of wrapping into the distant past, where
// the run would be over the moment it began: one minute before that end
// kiosk-b is refused and kiosk-a's run finishes; on that last minute
// kiosk-b takes the session over as the next incarnation.
func TestLeasesNearTheEndOfTimeAreClamped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		now       int64 // when kiosk-b claims and kiosk-a finishes
		stillHeld bool  // kiosk-a's leases have not ended at now
	}{
		{"one-minute-before-the-end", math.MaxInt64 - 1, true},
		{"at-the-end", math.MaxInt64, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := sessiontest.New(t, leases)
			a, b := l.Kiosk("kiosk-a"), l.Kiosk("kiosk-b")
			l.Clock.Set(math.MaxInt64 - 1)
			hostEnds, err := a.Store.RenewHost(t.Context(), a.Name)
			assert.NilError(t, err)
			c := a.Claim("sess-1")
			assert.Equal(t, hostEnds, int64(math.MaxInt64),
				"end of kiosk-a's %d-minute host lease renewed one minute before the largest minute: want the largest minute, not a wrapped one", leases.Host)
			assert.Equal(t, c.ExpiresAt, int64(math.MaxInt64),
				"end of kiosk-a's %d-minute session lease taken one minute before the largest minute: want the largest minute, not a wrapped one", leases.Session)

			l.Clock.Set(tc.now)
			b.Alive()
			next, got := b.TryClaim("sess-1")

			if tc.stillHeld {
				assert.Check(t, cmp.Equal(got, session.SessionHeld), "kiosk-b's claim at minute %d, inside kiosk-a's clamped leases", tc.now)
				assert.Check(t, cmp.Equal(a.Finish(c), sessiontest.Committed), "kiosk-a's finish at minute %d, inside its clamped leases", tc.now)
				return
			}
			assert.Check(t, cmp.Equal(got, sessiontest.Claimed), "kiosk-b's claim on the minute kiosk-a's clamped lease ends")
			assert.Check(t, cmp.Equal(next.Incarnation, c.Incarnation+1), "kiosk-b's incarnation after taking sess-1 over at the last minute")
		})
	}
}
