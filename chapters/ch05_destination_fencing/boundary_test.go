package destinationfencing

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestQueueRefusalDoesNotUndoDestinationEffect: A's lease was taken over,
// yet A reaches the destination before B (fence-old-first). The queue then
// refuses A's finish, and that refusal, in another database, leaves A's
// committed effect exactly where it is.
func TestQueueRefusalDoesNotUndoDestinationEffect(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	d := gatetest.New(t)
	a := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
	jobs.Clock.Set(a.ExpiresAt)
	queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "B")
	gatetest.Apply(t, d.Gate(gate.Fence), gate.Request{Fence: a.Fence, Operation: "OP-1", Units: 4})
	applied := d.State()

	err := jobs.Queue(leaseTicks).Finish(ctx, "JOB-1", "A", a.Fence)

	assert.Equal(t, queuetest.Reason(t, err), queue.LeaseLost,
		"A's finish with fence %d after B took JOB-1 over: want refused lease_lost", a.Fence)
	assert.Check(t, cmp.Equal(d.State(), applied),
		"the queue's refusal changed the destination; want A's committed effect still there")
	assert.Check(t, cmp.Equal(applied.Units, int64(4)), "A's call under the stale lease: want its 4 units applied")
}
