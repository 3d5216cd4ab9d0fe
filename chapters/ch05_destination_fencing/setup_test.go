package destinationfencing

// This file holds what setting the queue and the destination up again
// must leave alone: a deploy script or a restarted worker runs
// CreateSchema on files already in use.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestSettingUpAgainKeepsEveryJobAndFence: A holds JOB-1, B finished
// JOB-2 and JOB-3 is queued when queue.CreateSchema runs again on the same
// file. Every job reads back exactly as before, its claim history
// included, and the next claim's fence is greater than every fence issued
// before: a fence counter set back would hand C a fence A already holds.
func TestSettingUpAgainKeepsEveryJobAndFence(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	for i, id := range []string{"JOB-1", "JOB-2", "JOB-3", "JOB-4"} {
		jobs.Add(id, "OP-"+id[4:], int64(i+1))
	}
	q := jobs.Queue(leaseTicks)
	queuetest.Claim(t, q, "JOB-1", "A")
	b := queuetest.Claim(t, q, "JOB-2", "B")
	assert.NilError(t, q.Finish(t.Context(), "JOB-2", "B", b.Fence))
	ids := []string{"JOB-1", "JOB-2", "JOB-3"}
	before := map[string]queue.Job{}
	for _, id := range ids {
		before[id] = jobs.Get(id)
	}
	newest := jobs.Minted()

	assert.NilError(t, queue.CreateSchema(t.Context(), jobs.Connect()), "setting the queue up again on a queue in use")

	for _, id := range ids {
		after, err := q.Get(t.Context(), id)
		assert.Check(t, err, "%s after the queue was set up again: want it still there", id)
		assert.Check(t, cmp.Equal(after, before[id]), "%s after the queue was set up again: want it exactly as before, claim history included", id)
	}
	c := queuetest.Claim(t, q, "JOB-4", "C")
	assert.Check(t, c.Fence > newest, "C's claim after the queue was set up again got fence %d; want greater than %d, the newest issued before", c.Fence, newest)
}

// TestSettingUpAgainKeepsTheMarkUnitsAndReceipts: the destination has
// admitted A's OP-1 under fence 3 (mark 3, 4 units, one receipt) and
// logged a rolled-back call when gate.CreateSchema runs again on the same
// file. Its committed state and its arrivals log read back exactly as
// before, and the mark still fences: a call with fence 2 is turned away.
// A mark set back to 0 would admit every stale worker again.
func TestSettingUpAgainKeepsTheMarkUnitsAndReceipts(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	g := d.Gate(gate.FenceReceipt)
	gatetest.Apply(t, g, gate.Request{Fence: 3, Operation: "OP-1", Units: 4})
	gatetest.Apply(t, g, gate.Request{Fence: 3, Operation: "OP-2", Units: 2, FailAfterEffect: true})
	state, log := d.State(), d.Arrivals()

	assert.NilError(t, gate.CreateSchema(t.Context(), d.Connect()), "setting the destination up again while it is in use")

	assert.Check(t, cmp.Equal(d.State(), state), "the destination's committed state after it was set up again: want it exactly as before")
	assert.Check(t, cmp.DeepEqual(d.Arrivals(), log), "the arrivals log after the destination was set up again: want every line kept")
	stale := gatetest.Apply(t, g, gate.Request{Fence: 2, Operation: "OP-3", Units: 1})
	assert.Check(t, cmp.Equal(stale.Result, gate.Fenced), "a call with fence 2 after the destination, marked at 3, was set up again: want it fenced")
}
