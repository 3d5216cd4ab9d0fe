package destinationfencing

// The queue's claim and finish, and the gate's fence check, are
// compare-and-sets: the count of rows their UPDATE changed is their
// verdict. These tests take that count away and pin what a caller hears.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestAQueueVerdictThatCannotBeReadIsAnError: B's claim of JOB-1, or A's
// finish of it, ran its UPDATE, but the driver cannot say how many rows
// changed. The caller cannot know whether it won, so the call fails with
// the driver's error, neither a lease nor a refusal, and rolls back: the
// job's row and the fence counter read back as before.
func TestAQueueVerdictThatCannotBeReadIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		claimed bool // A claims JOB-1 before the count goes
		act     func(t *testing.T, q *queue.Queue, fence int64) error
	}{
		{"claim", false, claimAsB},
		{"finish", true, finishAsA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jobs := queuetest.New(t)
			jobs.Add("JOB-1", "OP-1", 4)
			var fence int64
			if tc.claimed {
				fence = queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A").Fence
			}
			before, minted := jobs.Get("JOB-1"), jobs.Minted()

			err := tc.act(t, queue.Open(sqlitedbtest.OpenCountless(t, jobs.Path), jobs.Clock, leaseTicks), fence)

			r, refused := queue.ReasonOf(err)
			assert.Check(t, err != nil && !refused, "%s whose count of changed rows cannot be read: got %v (refusal %q); want an error that is neither a win nor a refusal", tc.name, err, r)
			assert.Check(t, errors.Is(err, sqlitedbtest.ErrNoCount), "%s whose count cannot be read: %v; want the driver's error about the count", tc.name, err)
			assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after a %s whose count cannot be read: want the row exactly as it was", tc.name)
			assert.Check(t, cmp.Equal(jobs.Minted(), minted), "fences minted by a %s whose count cannot be read: want none", tc.name)
		})
	}
}

// TestAFenceCheckThatCannotBeReadIsAnError: the fence check is an UPDATE
// of the mark that changes a row only for a fence at or above it. When
// the driver cannot say whether it changed one, the gate cannot know
// whether B's fence was admitted: Apply fails with the driver's error and
// no answer (not fenced, not applied), and commits nothing, so the caller
// may retry.
func TestAFenceCheckThatCannotBeReadIsAnError(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})
	before, log := d.State(), d.Arrivals()

	out, err := gate.Open(sqlitedbtest.OpenCountless(t, d.Path), gate.FenceReceipt).Apply(t.Context(), gate.Request{Fence: 2, Operation: "OP-2", Units: 3})

	assert.Check(t, err != nil && out.Result == "",
		"B's call with fence 2 when the fence check's count cannot be read: got answer %q and error %v; want an error and no answer", out.Result, err)
	assert.Check(t, errors.Is(err, sqlitedbtest.ErrNoCount), "B's call when the fence check's count cannot be read: %v; want the driver's error about the count", err)
	assert.Check(t, cmp.Equal(d.State(), before), "committed destination after B's call whose fence check cannot be read: want it as it was")
	assert.Check(t, cmp.DeepEqual(d.Arrivals(), log), "arrivals log after B's call whose fence check cannot be read: want it as it was")
}
