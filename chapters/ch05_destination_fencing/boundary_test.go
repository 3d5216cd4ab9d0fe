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

// TestStaleFinishRefusedAfterEffectApplied: A's lease was taken over, yet
// A reaches the destination before B does (fence-old-first), and the
// destination, which has not heard of fence 2 yet, applies A's call. Only
// then does A try to finish, and the queue refuses it lease_lost: the
// queue judges the finish by its own row, whatever A already did
// elsewhere.
//
// The refusal comes too late to matter at the destination. The two files
// share no transaction and no code path, so nothing the queue decides can
// reach back and undo A's committed effect; no assertion could show that,
// because nothing in the queue could break it. That is why the destination
// needs its own fence.
func TestStaleFinishRefusedAfterEffectApplied(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	d := gatetest.New(t)
	a := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
	jobs.Clock.Set(a.ExpiresAt)
	b := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "B")
	out := gatetest.Apply(t, d.Gate(gate.Fence), gate.Request{Fence: a.Fence, Operation: "OP-1", Units: 4})
	if out.Result != gate.Applied {
		t.Fatalf("set-up: A's call with fence %d to a fresh destination = %s; want applied", a.Fence, out.Result)
	}

	err := jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "A", a.Fence)

	assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.LeaseLost),
		"A's finish with fence %d after B took JOB-1 over with fence %d: want it refused lease_lost, whatever A already did at the destination",
		a.Fence, b.Fence)
	job := jobs.Get("JOB-1")
	assert.Check(t, cmp.Equal(leaseOf(job), leaseOf(queue.Job{State: queue.Running, Worker: "B", Fence: b.Fence})),
		"JOB-1 after A's stale finish: want it still running under B's lease")
}
