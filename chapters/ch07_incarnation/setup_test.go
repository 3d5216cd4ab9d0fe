package incarnation

// This file holds what setting the session ledger up again must leave
// alone: a kiosk that restarts, or a deploy script, runs CreateSchema on a
// ledger already in use.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// TestSettingUpAgainKeepsEverySessionAndCompletion: kiosk-a ran sess-1
// once and finished it, and now runs sess-2, when session.CreateSchema
// runs again on the same file. Both sessions, their completions and
// kiosk-a's host lease read back as before: kiosk-a's run of sess-2 still
// finishes, and the next claim of sess-1 is its second incarnation, not
// its first again, which would let a callback of the first run finish it.
func TestSettingUpAgainKeepsEverySessionAndCompletion(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a, b := l.Kiosk("kiosk-a"), l.Kiosk("kiosk-b")
	l.Clock.Set(0)
	first := a.Claim("sess-1")
	assert.Assert(t, cmp.Equal(a.Finish(first), sessiontest.Committed), "set-up: kiosk-a finishes its run of sess-1")
	running := a.Claim("sess-2")
	before := map[string]sessiontest.State{"sess-1": l.State("sess-1"), "sess-2": l.State("sess-2")}

	assert.NilError(t, session.CreateSchema(t.Context(), l.Connect()), "setting the session ledger up again while it is in use")

	for id, want := range before {
		assert.Check(t, cmp.DeepEqual(l.State(id), want), "%s after the ledger was set up again: want its row and its completions exactly as before", id)
	}
	l.Clock.Set(1)
	assert.Check(t, a.Store.FinishSession(t.Context(), running, "order from kiosk-a"),
		"kiosk-a's finish of sess-2 at minute 1, under the host lease it renewed before the set-up")
	next := b.Claim("sess-1")
	assert.Check(t, cmp.Equal(next.Incarnation, first.Incarnation+1),
		"kiosk-b's claim of sess-1 after the ledger was set up again: incarnation %d; want %d, the run after kiosk-a's", next.Incarnation, first.Incarnation+1)
}
