// Package incarnation is chapter 7: a session's incarnation fences the
// callback of a host that no longer runs the session, even when the host
// name and the session name both still match.
package incarnation

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// leases: a session lease lasts 15 minutes, a host lease 10.
var leases = session.Leases{Session: 15, Host: 10}

// TestTakeoverIncrementsIncarnationAndFencesStaleFinish: kiosk-a's lease
// lapses, kiosk-b takes the session over with a greater incarnation, and
// kiosk-a's late finish under its old incarnation is refused as stale.
func TestTakeoverIncrementsIncarnationAndFencesStaleFinish(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a, b := l.Kiosk("kiosk-a"), l.Kiosk("kiosk-b")

	l.Clock.Set(0)
	first := a.Claim("sess-1")
	l.Clock.Set(20) // kiosk-a's session lease ran out at minute 15
	second := b.Claim("sess-1")

	assert.Assert(t, second.Incarnation > first.Incarnation,
		"kiosk-b's takeover got incarnation %d; want greater than kiosk-a's %d, or a takeover is not a new run",
		second.Incarnation, first.Incarnation)
	l.Clock.Set(22)
	assert.Equal(t, a.Finish(first), session.StaleIncarnation,
		"kiosk-a's late finish under incarnation %d was not refused as stale after kiosk-b's takeover (incarnation %d)",
		first.Incarnation, second.Incarnation)
	assert.Equal(t, b.Finish(second), sessiontest.Committed,
		"kiosk-b's finish under the current incarnation %d was refused", second.Incarnation)
	assert.Assert(t, cmp.DeepEqual(l.Completions("sess-1"), []sessiontest.Generation{{Host: "kiosk-b", Incarnation: second.Incarnation}}),
		"sess-1's completions are not exactly kiosk-b's run %d: a stale run committed, or the current one did not", second.Incarnation)
}

// TestExpiredSessionCannotFinishWithoutTakeover: a run whose session lease
// ran out cannot finish, even though nobody took the session over and the
// host is alive; claiming it again starts a new run, and the old run's
// finish stays refused.
func TestExpiredSessionCannotFinishWithoutTakeover(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a := l.Kiosk("kiosk-a")

	l.Clock.Set(0)
	first := a.Claim("sess-1")
	l.Clock.Set(16) // the session lease ran out at minute 15; nobody else came
	a.Alive()
	assert.Equal(t, a.Finish(first), session.SessionLeaseExpired,
		"kiosk-a finished incarnation %d at minute 16, after its session lease ran out at %d", first.Incarnation, first.ExpiresAt)

	again := a.Claim("sess-1")
	assert.Assert(t, again.Incarnation > first.Incarnation,
		"kiosk-a's claim after its own lease lapsed got incarnation %d; want greater than %d: any claim after expiry is a new run",
		again.Incarnation, first.Incarnation)
	assert.Equal(t, a.Finish(first), session.StaleIncarnation,
		"the expired run's finish (incarnation %d) was not refused as stale after kiosk-a claimed again as incarnation %d",
		first.Incarnation, again.Incarnation)
	assert.Equal(t, a.Finish(again), sessiontest.Committed, "kiosk-a's new run (incarnation %d) could not finish", again.Incarnation)
	assert.Assert(t, cmp.DeepEqual(l.Completions("sess-1"), []sessiontest.Generation{{Host: "kiosk-a", Incarnation: again.Incarnation}}),
		"sess-1's completions are not exactly kiosk-a's new run %d: the expired run committed, or the new one did not", again.Incarnation)
}

// TestRehostedSessionOnSameHostRefusesOldCallback: kiosk-a runs the
// session, loses it to kiosk-b, and later hosts it again. The callback
// from kiosk-a's first run matches the host and the session, and is still
// refused: only the incarnation tells the two runs apart.
func TestRehostedSessionOnSameHostRefusesOldCallback(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a, b := l.Kiosk("kiosk-a"), l.Kiosk("kiosk-b")

	l.Clock.Set(0)
	old := a.Claim("sess-1")
	l.Clock.Set(20)
	taken := b.Claim("sess-1")
	assert.Equal(t, b.Finish(taken), sessiontest.Committed, "kiosk-b's finish of its current run (incarnation %d) was refused", taken.Incarnation)
	l.Clock.Set(30)
	rehosted := a.Claim("sess-1")
	assert.Assert(t, rehosted.Incarnation > taken.Incarnation && taken.Incarnation > old.Incarnation,
		"incarnations %d (kiosk-a), %d (kiosk-b), %d (kiosk-a again); want strictly increasing",
		old.Incarnation, taken.Incarnation, rehosted.Incarnation)

	l.Clock.Set(31)
	assert.Equal(t, a.Finish(old), session.StaleIncarnation,
		"kiosk-a's old callback (incarnation %d) was not refused as stale while kiosk-a hosts incarnation %d: same host, same session, older run",
		old.Incarnation, rehosted.Incarnation)
	assert.Assert(t, cmp.DeepEqual(l.Completions("sess-1"), []sessiontest.Generation{{Host: "kiosk-b", Incarnation: taken.Incarnation}}),
		"sess-1's completions are not exactly kiosk-b's run %d: kiosk-a's old callback committed", taken.Incarnation)
}

// TestSameHostRenewalKeepsIncarnation: a host that claims its own session
// again inside its lease renews it: same incarnation, later expiry, and
// its in-flight finish from before the renewal still commits.
func TestSameHostRenewalKeepsIncarnation(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a := l.Kiosk("kiosk-a")

	l.Clock.Set(0)
	first := a.Claim("sess-1")
	l.Clock.Set(10)
	renewed := a.Claim("sess-1")

	assert.Check(t, renewed.Renewed, "kiosk-a's claim inside its own lease was not a renewal")
	assert.Equal(t, renewed.Incarnation, first.Incarnation,
		"kiosk-a's renewal at minute 10 changed the incarnation; want the same run")
	assert.Equal(t, renewed.ExpiresAt, int64(25),
		"kiosk-a's renewal at minute 10 left its session lease ending at minute %d; want 10 + 15", renewed.ExpiresAt)
	l.Clock.Set(18) // past the first claim's expiry, inside the renewed lease
	assert.Equal(t, a.Finish(first), sessiontest.Committed,
		"kiosk-a's finish with the claim it got at minute 0 was refused after kiosk-a renewed its own lease: the renewal fenced its own run")
}

// countingClock reads a fixed minute and counts how often it was read, so a
// test can tell whether a finish had already decided what "now" is.
type countingClock struct {
	minute int64
	reads  int
}

func (c *countingClock) Now() int64 {
	c.reads++
	return c.minute
}

// TestFinishRereadsLeasesInsideItsTransaction: the finish's conditions are
// judged from the rows inside its own transaction, so a takeover that lands
// after kiosk-a's finish read its clock and before its transaction began
// is seen, and kiosk-a's finish is refused.
func TestFinishRereadsLeasesInsideItsTransaction(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	l.Clock.Set(0)
	claimer := l.Kiosk("kiosk-a")
	old := claimer.Claim("sess-1")
	l.Clock.Set(8)
	claimer.Alive() // kiosk-a's host lease now runs to minute 18

	// kiosk-a finishes at minute 14, inside both of its leases. It is
	// paused just before its transaction begins, after everything it does
	// first; meanwhile the clock reaches minute 16 for kiosk-b, which takes
	// the session over.
	b := l.Kiosk("kiosk-b")
	clk := &countingClock{minute: 14}
	slow := l.KioskWithClock("kiosk-a", clk)
	readsAtTakeover := -1 // how often kiosk-a had read its clock when kiosk-b took over
	slow.Store.PauseBeforeTransactions(func() {
		if readsAtTakeover >= 0 {
			return // one takeover is the story
		}
		readsAtTakeover = clk.reads
		l.Clock.Set(16)
		b.Claim("sess-1")
	})
	got := slow.Finish(old)

	assert.Assert(t, readsAtTakeover >= 0, "kiosk-a's finish began no transaction, so kiosk-b's takeover never ran")
	assert.Assert(t, readsAtTakeover > 0,
		"kiosk-b took the session over before kiosk-a's finish read its clock: the takeover must land after kiosk-a decided what now is")
	assert.Check(t, cmp.Equal(got, session.StaleIncarnation),
		"kiosk-a's finish (incarnation %d) after kiosk-b took sess-1 over between kiosk-a's check and its write", old.Incarnation)
	assert.Assert(t, cmp.DeepEqual(l.Completions("sess-1"), []sessiontest.Generation{}),
		"kiosk-a's stale run (incarnation %d) committed a completion of sess-1, which kiosk-b now runs", old.Incarnation)
}
