package incarnation

// The two leases of this chapter, each tested on the minute before it ends
// and on the minute it ends, from the holder's side and from another
// host's.

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// lastLiveMinute and endMinute frame kiosk-a's session lease in the
// boundary tests: granted at minute 0 for 15 minutes, it is live through
// minute 14 and over at minute 15.
const lastLiveMinute, endMinute = 14, 15

// heldSession returns a ledger on which kiosk-a claimed sess-1 at minute 0
// (session lease to minute 15) and renewed its host lease at minute 10
// (host lease to minute 20), so only the session lease ends at minute 15.
func heldSession(t *testing.T) (*sessiontest.Ledger, *sessiontest.Kiosk, session.Claim) {
	t.Helper()
	l := sessiontest.New(t, leases)
	a := l.Kiosk("kiosk-a")
	l.Clock.Set(0)
	c := a.Claim("sess-1")
	l.Clock.Set(10)
	a.Alive()
	return l, a, c
}

// TestSessionLeaseEndsAtItsExpiryMinute: a session lease that ends at
// minute 15 is live at minute 14 and over at minute 15, for the holder and
// for everybody else alike. At 14 kiosk-a's claim renews the same run, its
// finish commits, and kiosk-b is refused without changing anything; at 15
// kiosk-a's claim is a new run, its old run can no longer finish, and
// kiosk-b takes the session over. There is no minute at which both can
// believe they run it.
func TestSessionLeaseEndsAtItsExpiryMinute(t *testing.T) {
	t.Parallel()
	t.Run("holder_claims_again", func(t *testing.T) {
		t.Parallel()
		for _, minute := range []int64{lastLiveMinute, endMinute} {
			t.Run(fmt.Sprintf("minute_%d", minute), func(t *testing.T) {
				t.Parallel()
				l, a, first := heldSession(t)
				l.Clock.Set(minute)
				again := a.Claim("sess-1")
				finished := a.Finish(first)
				if minute < endMinute {
					assert.Check(t, again.Renewed && again.Incarnation == first.Incarnation,
						"kiosk-a's claim at minute %d, inside its lease to %d, got incarnation %d (renewed: %v); want a renewal of incarnation %d",
						minute, first.ExpiresAt, again.Incarnation, again.Renewed, first.Incarnation)
					assert.Check(t, cmp.Equal(finished, sessiontest.Committed),
						"kiosk-a's finish of the run it renewed at minute %d", minute)
				} else {
					assert.Check(t, !again.Renewed && again.Incarnation == first.Incarnation+1,
						"kiosk-a's claim at minute %d, when its lease ended, got incarnation %d (renewed: %v); want a new run, incarnation %d",
						minute, again.Incarnation, again.Renewed, first.Incarnation+1)
					assert.Check(t, cmp.Equal(finished, session.StaleIncarnation),
						"kiosk-a's finish of its old run (incarnation %d) after its claim at minute %d started a new one", first.Incarnation, minute)
				}
				assert.Check(t, cmp.Equal(again.ExpiresAt, minute+leases.Session),
					"kiosk-a's claim at minute %d holds sess-1 until minute %d; want %d + %d", minute, again.ExpiresAt, minute, leases.Session)
			})
		}
	})
	t.Run("holder_finishes", func(t *testing.T) {
		t.Parallel()
		for _, minute := range []int64{lastLiveMinute, endMinute} {
			t.Run(fmt.Sprintf("minute_%d", minute), func(t *testing.T) {
				t.Parallel()
				l, a, c := heldSession(t)
				l.Clock.Set(minute)
				before := l.State("sess-1")
				got := a.Finish(c)
				if minute < endMinute {
					assert.Check(t, cmp.Equal(got, sessiontest.Committed),
						"kiosk-a's finish at minute %d, inside its session lease to %d", minute, c.ExpiresAt)
					return
				}
				assert.Check(t, cmp.Equal(got, session.SessionLeaseExpired),
					"kiosk-a's finish at minute %d, the minute its session lease ended", minute)
				after := l.State("sess-1")
				assert.Check(t, cmp.DeepEqual(after, before),
					"kiosk-a's refused finish at minute %d changed sess-1", minute)
			})
		}
	})
	t.Run("other_host_claims", func(t *testing.T) {
		t.Parallel()
		for _, minute := range []int64{lastLiveMinute, endMinute} {
			t.Run(fmt.Sprintf("minute_%d", minute), func(t *testing.T) {
				t.Parallel()
				l, a, held := heldSession(t)
				b := l.Kiosk("kiosk-b")
				b.Alive()
				l.Clock.Set(minute)
				before := l.State("sess-1")
				taken, got := b.TryClaim("sess-1")
				if minute < endMinute {
					assert.Check(t, cmp.Equal(got, session.SessionHeld),
						"kiosk-b's claim at minute %d, while kiosk-a's lease runs to %d", minute, held.ExpiresAt)
					after := l.State("sess-1")
					assert.Check(t, cmp.DeepEqual(after, before),
						"kiosk-b's refused claim at minute %d changed sess-1", minute)
					return
				}
				assert.Check(t, cmp.Equal(got, sessiontest.Claimed),
					"kiosk-b's claim at minute %d, the minute kiosk-a's lease ended: want a takeover", minute)
				assert.Check(t, cmp.Equal(l.Session("sess-1"),
					session.Session{ID: "sess-1", Host: "kiosk-b", Incarnation: held.Incarnation + 1, LeaseExpiresAt: minute + leases.Session}),
					"sess-1 after kiosk-b's takeover at minute %d; want kiosk-b running incarnation %d", minute, held.Incarnation+1)
				assert.Check(t, cmp.Equal(taken.Incarnation, held.Incarnation+1),
					"kiosk-b's takeover at minute %d handed it incarnation %d", minute, taken.Incarnation)
				assert.Check(t, cmp.Equal(a.Finish(held), session.StaleIncarnation),
					"kiosk-a's finish at minute %d, after kiosk-b took sess-1 over", minute)
			})
		}
	})
}

// hostLastLiveMinute and hostEndMinute frame kiosk-a's host lease in the
// boundary tests: renewed at minute 0 for 10 minutes, it is live through
// minute 9 and over at minute 10, while its session lease runs to 15.
const hostLastLiveMinute, hostEndMinute = 9, 10

// TestHostLeaseEndsAtItsExpiryMinute: a host lease that ends at minute 10
// is live at minute 9 and over at minute 10. At 9 kiosk-a finishes; at 10
// it cannot, though its session lease runs to 15, unless it renews its
// host lease first: a host lease is a record that the host is alive, not
// a claim anybody else can win, so renewing it even at the minute it ends
// keeps the host alive. Another host gains nothing at minute 10: the
// session lease, not the host lease, decides who may take a session over.
func TestHostLeaseEndsAtItsExpiryMinute(t *testing.T) {
	t.Parallel()
	// claimed returns a ledger on which kiosk-a claimed sess-1 at minute 0
	// and has not renewed its host lease since.
	claimed := func(t *testing.T) (*sessiontest.Ledger, *sessiontest.Kiosk, session.Claim) {
		t.Helper()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		l.Clock.Set(0)
		return l, a, a.Claim("sess-1")
	}
	t.Run("holder_finishes", func(t *testing.T) {
		t.Parallel()
		for _, minute := range []int64{hostLastLiveMinute, hostEndMinute} {
			t.Run(fmt.Sprintf("minute_%d", minute), func(t *testing.T) {
				t.Parallel()
				l, a, c := claimed(t)
				l.Clock.Set(minute)
				before := l.State("sess-1")
				got := a.Finish(c)
				if minute < hostEndMinute {
					assert.Check(t, cmp.Equal(got, sessiontest.Committed),
						"kiosk-a's finish at minute %d, inside its host lease to %d", minute, hostEndMinute)
					return
				}
				assert.Check(t, cmp.Equal(got, session.HostLeaseExpired),
					"kiosk-a's finish at minute %d, the minute its host lease ended (its session lease runs to %d)", minute, c.ExpiresAt)
				after := l.State("sess-1")
				assert.Check(t, cmp.DeepEqual(after, before),
					"kiosk-a's refused finish at minute %d changed sess-1", minute)
			})
		}
	})
	t.Run("holder_renews", func(t *testing.T) {
		t.Parallel()
		for _, minute := range []int64{hostLastLiveMinute, hostEndMinute} {
			t.Run(fmt.Sprintf("minute_%d", minute), func(t *testing.T) {
				t.Parallel()
				l, a, c := claimed(t)
				l.Clock.Set(minute)
				until, err := a.Store.RenewHost(t.Context(), a.Name)
				assert.NilError(t, err, "kiosk-a renews its host lease at minute %d", minute)
				assert.Check(t, cmp.Equal(until, minute+leases.Host),
					"kiosk-a's host lease renewed at minute %d runs to %d; want %d + %d", minute, until, minute, leases.Host)
				assert.Check(t, cmp.Equal(a.Finish(c), sessiontest.Committed),
					"kiosk-a's finish at minute %d, just after it renewed its host lease", minute)
			})
		}
	})
	t.Run("other_host_claims", func(t *testing.T) {
		t.Parallel()
		for _, minute := range []int64{hostLastLiveMinute, hostEndMinute} {
			t.Run(fmt.Sprintf("minute_%d", minute), func(t *testing.T) {
				t.Parallel()
				l, a, c := claimed(t)
				b := l.Kiosk("kiosk-b")
				l.Clock.Set(minute)
				b.Alive()
				before := l.State("sess-1")
				_, got := b.TryClaim("sess-1")
				assert.Check(t, cmp.Equal(got, session.SessionHeld),
					"kiosk-b's claim at minute %d, while kiosk-a's session lease runs to %d: a host lease that ends does not free the session", minute, c.ExpiresAt)
				after := l.State("sess-1")
				assert.Check(t, cmp.DeepEqual(after, before),
					"kiosk-b's refused claim at minute %d changed sess-1", minute)
				if minute == hostEndMinute {
					assert.Check(t, cmp.Equal(a.Finish(c), session.HostLeaseExpired),
						"kiosk-a's finish at minute %d, when neither kiosk may finish sess-1", minute)
				}
			})
		}
	})
}
