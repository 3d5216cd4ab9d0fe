package session_test

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// TestLeasesNearTheEndOfTimeAreClamped: a session lease and a host lease
// that would end past the largest time are granted, clamped to end at the
// largest time, so the session is held, and can be finished, until then.
func TestLeasesNearTheEndOfTimeAreClamped(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, session.Leases{Session: 15, Host: 10})
	a, b := l.Kiosk("kiosk-a"), l.Kiosk("kiosk-b")
	l.Clock.Set(math.MaxInt64 - 1)

	c := a.Claim("sess-1")
	hostUntil, err := a.Store.RenewHost(t.Context(), "kiosk-a")

	assert.NilError(t, err)
	assert.Equal(t, c.ExpiresAt, int64(math.MaxInt64), "expiry of a 15-minute session lease taken one minute before the largest time")
	assert.Equal(t, hostUntil, int64(math.MaxInt64), "expiry of a 10-minute host lease renewed one minute before the largest time")
	b.Alive()
	_, err = b.Store.Claim(t.Context(), "sess-1", "kiosk-b")
	reason, _ := session.ReasonOf(err)
	assert.Equal(t, reason, session.SessionHeld, "kiosk-b's claim while kiosk-a's clamped lease runs (err %v)", err)
	assert.Equal(t, a.Finish(c), sessiontest.Committed, "kiosk-a finishing inside its clamped leases")
}
