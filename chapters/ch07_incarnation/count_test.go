package incarnation

// A finish is a compare-and-set: the INSERT of its completion writes a
// row only while the claim's generation and both leases hold, and the
// count of rows it wrote is the verdict. This test takes the count away.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestAFinishThatCannotBeReadIsAnError: kiosk-a finishes sess-1 at minute
// 5, inside both its leases, but the driver cannot say whether the
// completion's INSERT wrote a row. kiosk-a cannot know whether its run
// counted, so the finish fails with the driver's error, never a finish and
// never a refusal, and rolls back: sess-1, its completions and its lease
// are as they were, and a retry can still finish it.
func TestAFinishThatCannotBeReadIsAnError(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	l.Clock.Set(0)
	c := l.Kiosk("kiosk-a").Claim("sess-1")
	l.Clock.Set(5)
	before := l.State("sess-1")

	err := session.Open(sqlitedbtest.OpenCountless(t, l.Path), l.Clock, leases).FinishSession(t.Context(), c, "order for table 4")

	const what = "kiosk-a's finish of sess-1 at minute 5, whose count of written rows cannot be read"
	sessiontest.Failed(t, err, what)
	assert.Check(t, errors.Is(err, sqlitedbtest.ErrNoCount), "%s: %v; want the driver's error about the count", what, err)
	assert.Check(t, cmp.DeepEqual(l.State("sess-1"), before), "%s failed, yet sess-1 changed", what)
	assert.Check(t, cmp.Equal(l.Kiosk("kiosk-a").Finish(c), sessiontest.Committed), "kiosk-a's retry of the finish that could not be read: want it to commit")
}
