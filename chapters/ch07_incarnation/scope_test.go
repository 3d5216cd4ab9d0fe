package incarnation

// What each write changes: exactly the session it names, and, for a
// finish, the release of that session with its incarnation kept.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// TestEachWriteTouchesOnlyItsOwnSession: kiosk-a runs two sessions, sess-1
// and sess-2, both as incarnation 1. A renewal, a takeover and a finish of
// sess-1 leave sess-2 exactly as it was, and a callback for sess-1 never
// completes sess-2, even though host and incarnation match.
func TestEachWriteTouchesOnlyItsOwnSession(t *testing.T) {
	t.Parallel()
	// twoSessions returns a ledger on which kiosk-a claimed sess-1 and
	// sess-2 at minute 0, and sess-2 as committed then.
	twoSessions := func(t *testing.T) (*sessiontest.Ledger, *sessiontest.Kiosk, session.Claim, sessiontest.State) {
		t.Helper()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		l.Clock.Set(0)
		c := a.Claim("sess-1")
		a.Claim("sess-2")
		return l, a, c, l.State("sess-2")
	}
	t.Run("renewal", func(t *testing.T) {
		t.Parallel()
		l, a, _, before := twoSessions(t)
		l.Clock.Set(5)
		a.Claim("sess-1")
		after := l.State("sess-2")
		assert.Check(t, cmp.DeepEqual(after, before),
			"kiosk-a's renewal of sess-1 at minute 5 changed sess-2")
	})
	t.Run("takeover", func(t *testing.T) {
		t.Parallel()
		l, _, _, before := twoSessions(t)
		l.Clock.Set(20) // both of kiosk-a's session leases ran out at 15
		l.Kiosk("kiosk-b").Claim("sess-1")
		after := l.State("sess-2")
		assert.Check(t, cmp.DeepEqual(after, before),
			"kiosk-b's takeover of sess-1 at minute 20 changed sess-2, which it never claimed")
	})
	t.Run("finish", func(t *testing.T) {
		t.Parallel()
		l, a, c, before := twoSessions(t)
		l.Clock.Set(5)
		assert.Check(t, cmp.Equal(a.Finish(c), sessiontest.Committed), "kiosk-a's finish of sess-1 at minute 5")
		afterFinish := l.State("sess-2")
		assert.Check(t, cmp.DeepEqual(afterFinish, before),
			"kiosk-a's finish of sess-1 changed sess-2: released it, or completed it")
		assert.Check(t, cmp.Equal(a.Finish(c), session.NotClaimed), "the second delivery of kiosk-a's sess-1 callback")
		afterRedelivery := l.State("sess-2")
		assert.Check(t, cmp.DeepEqual(afterRedelivery, before),
			"the second delivery of kiosk-a's sess-1 callback changed sess-2, which kiosk-a runs under the same incarnation")
	})
}

// TestFinishReleasesSessionKeepingIncarnation: a committed finish leaves
// the session free (no host, no lease) and keeps its incarnation, so
// another host can claim it at once, long before the finished run's lease
// would have run out, and that claim is the next run.
func TestFinishReleasesSessionKeepingIncarnation(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a, b := l.Kiosk("kiosk-a"), l.Kiosk("kiosk-b")
	l.Clock.Set(0)
	c := a.Claim("sess-1")
	l.Clock.Set(5)
	assert.Assert(t, cmp.Equal(a.Finish(c), sessiontest.Committed), "kiosk-a's finish at minute 5, inside both leases")

	assert.Check(t, cmp.Equal(l.Session("sess-1"), session.Session{ID: "sess-1", Incarnation: c.Incarnation}),
		"sess-1 after kiosk-a's run %d finished; want it free, with no host and no lease, and its incarnation kept", c.Incarnation)
	l.Clock.Set(6) // kiosk-a's lease would have run to 15
	next := b.Claim("sess-1")
	assert.Check(t, cmp.Equal(next.Incarnation, c.Incarnation+1),
		"kiosk-b's claim at minute 6 of the released sess-1 got incarnation %d; want the next run, %d", next.Incarnation, c.Incarnation+1)
}
