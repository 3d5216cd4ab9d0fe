// Package incarnation is chapter 7: a session's incarnation fences the
// callback of a host that no longer runs the session, even when the host
// name and the session name both still match.
package incarnation

import (
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
)

// TestTakeoverIncrementsIncarnationAndFencesStaleFinish: kiosk-a's lease
// lapses, kiosk-b takes the session over with a greater incarnation, and
// kiosk-a's late finish under its old incarnation is refused as stale.
func TestTakeoverIncrementsIncarnationAndFencesStaleFinish(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	a, b := l.kiosk("kiosk-a"), l.kiosk("kiosk-b")

	l.at(0)
	first := a.claim("sess-1")
	l.at(20) // kiosk-a's session lease ran out at minute 15
	second := b.claim("sess-1")

	assert.Assert(t, second.Incarnation > first.Incarnation,
		"kiosk-b's takeover got incarnation %d; want greater than kiosk-a's %d, or a takeover is not a new run",
		second.Incarnation, first.Incarnation)
	l.at(22)
	assert.Equal(t, a.finish(first), session.StaleIncarnation,
		"kiosk-a's late finish under incarnation %d after kiosk-b's takeover (incarnation %d)", first.Incarnation, second.Incarnation)
	assert.Equal(t, b.finish(second), committed, "kiosk-b's finish under the current incarnation")
	assert.DeepEqual(t, l.completions("sess-1"), []generation{{"kiosk-b", second.Incarnation}})
}

// TestExpiredSessionCannotFinishWithoutTakeover: a run whose session lease
// ran out cannot finish, even though nobody took the session over and the
// host is alive; claiming it again starts a new run, and the old run's
// finish stays refused.
func TestExpiredSessionCannotFinishWithoutTakeover(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	a := l.kiosk("kiosk-a")

	l.at(0)
	first := a.claim("sess-1")
	l.at(16) // the session lease ran out at minute 15; nobody else came
	a.alive()
	assert.Equal(t, a.finish(first), session.SessionLeaseExpired,
		"kiosk-a finished incarnation %d at minute 16, after its session lease ran out at %d", first.Incarnation, first.ExpiresAt)

	again := a.claim("sess-1")
	assert.Assert(t, again.Incarnation > first.Incarnation,
		"kiosk-a's claim after its own lease lapsed got incarnation %d; want greater than %d: any claim after expiry is a new run",
		again.Incarnation, first.Incarnation)
	assert.Equal(t, a.finish(first), session.StaleIncarnation,
		"the expired run's finish (incarnation %d) after kiosk-a claimed again as incarnation %d", first.Incarnation, again.Incarnation)
	assert.Equal(t, a.finish(again), committed, "the new run's finish")
	assert.DeepEqual(t, l.completions("sess-1"), []generation{{"kiosk-a", again.Incarnation}})
}

// TestRehostedSessionOnSameHostRefusesOldCallback: kiosk-a runs the
// session, loses it to kiosk-b, and later hosts it again. The callback
// from kiosk-a's first run matches the host and the session, and is still
// refused: only the incarnation tells the two runs apart.
func TestRehostedSessionOnSameHostRefusesOldCallback(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	a, b := l.kiosk("kiosk-a"), l.kiosk("kiosk-b")

	l.at(0)
	old := a.claim("sess-1")
	l.at(20)
	taken := b.claim("sess-1")
	assert.Equal(t, b.finish(taken), committed, "kiosk-b's finish")
	l.at(30)
	rehosted := a.claim("sess-1")
	assert.Assert(t, rehosted.Incarnation > taken.Incarnation && taken.Incarnation > old.Incarnation,
		"incarnations %d (kiosk-a), %d (kiosk-b), %d (kiosk-a again); want strictly increasing",
		old.Incarnation, taken.Incarnation, rehosted.Incarnation)

	l.at(31)
	assert.Equal(t, a.finish(old), session.StaleIncarnation,
		"kiosk-a's old callback (incarnation %d) while kiosk-a hosts incarnation %d: same host, same session, older run",
		old.Incarnation, rehosted.Incarnation)
	assert.DeepEqual(t, l.completions("sess-1"), []generation{{"kiosk-b", taken.Incarnation}})
}

// TestSameHostRenewalKeepsIncarnation: a host that claims its own session
// again inside its lease renews it: same incarnation, later expiry, and
// its in-flight finish from before the renewal still commits.
func TestSameHostRenewalKeepsIncarnation(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	a := l.kiosk("kiosk-a")

	l.at(0)
	first := a.claim("sess-1")
	l.at(10)
	renewed := a.claim("sess-1")

	assert.Check(t, renewed.Renewed, "kiosk-a's claim inside its own lease was not a renewal")
	assert.Equal(t, renewed.Incarnation, first.Incarnation,
		"kiosk-a's renewal at minute 10 changed the incarnation; want the same run")
	assert.Equal(t, renewed.ExpiresAt, int64(25), "the renewal must extend the lease")
	l.at(18) // past the first claim's expiry, inside the renewed lease
	assert.Equal(t, a.finish(first), committed,
		"kiosk-a's finish with the claim it got at minute 0, after renewing its own lease")
}

// stallClock reads a fixed minute, but the first time anyone reads it, it
// first runs stall: a stand-in for whatever can happen while a process is
// paused (a garbage collection, a slow disk, a lost packet).
type stallClock struct {
	minute int64
	once   sync.Once
	stall  func()
}

func (c *stallClock) Now() int64 {
	c.once.Do(c.stall)
	return c.minute
}

// TestFinishRereadsLeasesInsideItsTransaction: the finish's conditions are
// judged from the rows inside its own transaction, so a takeover that
// happens while kiosk-a is paused on its way to the write is seen, and
// kiosk-a's finish is refused.
func TestFinishRereadsLeasesInsideItsTransaction(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	l.at(0)
	claimer := l.kiosk("kiosk-a")
	old := claimer.claim("sess-1")
	l.at(8)
	claimer.alive() // kiosk-a's host lease now runs to minute 18

	// kiosk-a finishes at minute 14, inside both of its leases. While it
	// is paused there, the clock reaches minute 16 for kiosk-b, which
	// takes the session over.
	b := l.kiosk("kiosk-b")
	var taken bool
	slow := l.kioskWithClock("kiosk-a", &stallClock{minute: 14, stall: func() {
		l.at(16)
		b.claim("sess-1")
		taken = true
	}})
	got := slow.finish(old)

	assert.Assert(t, taken, "the takeover never ran: the test's interleaving did not happen")
	assert.Equal(t, got, session.StaleIncarnation,
		"kiosk-a's finish (incarnation %d) after kiosk-b took sess-1 over between kiosk-a's check and its write", old.Incarnation)
	assert.DeepEqual(t, l.completions("sess-1"), []generation{})
}

// TestFinishRefusalReasons: every condition of the finish predicate is
// load-bearing, and each refusal names the one that failed.
func TestFinishRefusalReasons(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// run sets up a ledger and returns the kiosk that finishes and the
		// claim it presents.
		run  func(t *testing.T, l *ledger) (*kiosk, session.Claim)
		want session.Reason
	}{{
		name: "wrong_host",
		run: func(t *testing.T, l *ledger) (*kiosk, session.Claim) {
			l.at(0)
			held := l.kiosk("kiosk-a").claim("sess-1")
			b := l.kiosk("kiosk-b")
			b.alive()
			l.at(5) // kiosk-b presents kiosk-a's current incarnation as its own
			return b, session.Claim{Session: "sess-1", Host: "kiosk-b", Incarnation: held.Incarnation}
		},
		want: session.WrongHost,
	}, {
		name: "host_lease_expired",
		run: func(t *testing.T, l *ledger) (*kiosk, session.Claim) {
			l.at(0)
			a := l.kiosk("kiosk-a")
			c := a.claim("sess-1")
			l.at(12) // the host lease ran out at 10; the session lease runs to 15
			return a, c
		},
		want: session.HostLeaseExpired,
	}, {
		name: "not_claimed",
		run: func(t *testing.T, l *ledger) (*kiosk, session.Claim) {
			a := l.kiosk("kiosk-a")
			a.alive()
			return a, session.Claim{Session: "sess-1", Host: "kiosk-a", Incarnation: 1}
		},
		want: session.NotClaimed,
	}, {
		name: "redelivered_after_finish",
		run: func(t *testing.T, l *ledger) (*kiosk, session.Claim) {
			l.at(0)
			a := l.kiosk("kiosk-a")
			c := a.claim("sess-1")
			if r := a.finish(c); r != committed {
				t.Fatalf("the first delivery of kiosk-a's finish was refused: %s", r)
			}
			return a, c
		},
		want: session.NotClaimed,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(t)
			k, c := tc.run(t, l)
			before := len(l.completions("sess-1"))
			got := k.finish(c)
			assert.Check(t, cmp.Equal(got, tc.want),
				"%s finishing sess-1 under incarnation %d", k.name, c.Incarnation)
			assert.Check(t, cmp.Len(l.completions("sess-1"), before), "a refused finish must write no completion")
		})
	}
}
