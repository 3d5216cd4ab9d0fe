package nestedclaims

// Every step of a run is a compare-and-set whose verdict is the count of
// rows its UPDATE changed: the lease, the attempt, the start, the finish
// and the release. This test takes the count away from each step in turn.

import (
	"context"
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestARunStepThatCannotBeReadIsAnError: a process runs asg-1, and at one
// step the driver cannot say how many rows the step's UPDATE changed. The
// process cannot know whether that step won, so the run fails with the
// driver's error, never a refusal, and goes no further:
// the provider runs only if the start was read, and the assignment keeps
// the last state a step committed with a count that was read. Missing the
// release's count is an error too, not "the lease was already lost".
func TestARunStepThatCannotBeReadIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		step    string
		from    int         // the one transaction of the run whose count cannot be read
		invoked bool        // the provider runs
		state   actor.State // asg-1's state afterwards
	}{
		{"lease", 1, false, actor.Created},
		{"attempt", 2, false, actor.Created},
		{"start", 3, false, actor.Created},
		{"finish", 4, true, actor.Running},
		{"release", 5, true, actor.Completed},
	} {
		t.Run(tc.step, func(t *testing.T) {
			t.Parallel()
			l := actortest.New(t, 10)
			l.Add("ops-bot", "asg-1")
			db := l.Connect()
			p := actor.Open(db, l.Clock, l.Lease)
			began := 0
			p.PauseBeforeTransactions(func() {
				switch began++; began {
				case tc.from:
					db.FailCounts(sqlitedbtest.ErrNoCount)
				case tc.from + 1:
					db.FailCounts(nil) // the steps after it read their counts again
				}
			})
			invoked := false

			_, err := p.RunAssignment(t.Context(), "asg-1", func(context.Context, actor.Assignment) (actor.State, error) {
				invoked = true
				return actor.Completed, nil
			})

			what := "a run of asg-1 whose " + tc.step + " cannot be read"
			notRefused(t, err, what)
			assert.Check(t, errors.Is(err, sqlitedbtest.ErrNoCount), "%s: %v; want the driver's error about the count", what, err)
			assert.Check(t, cmp.Equal(invoked, tc.invoked), "%s: provider invoked", what)
			assert.Check(t, cmp.Equal(l.Assignment("asg-1").State, tc.state), "asg-1 after %s", what)
		})
	}
}
