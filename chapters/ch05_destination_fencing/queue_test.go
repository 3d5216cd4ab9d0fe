// Package destinationfencing is chapter 5: a worker that lost its queue
// lease resumes and calls a destination in another database; the
// destination's own fence and receipts decide what it admits.
package destinationfencing

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// leaseTicks is the lease length of every queue test: claimed at tick 0,
// a lease expires at tick 5.
const leaseTicks = 5

// leaseOf describes a job's lease the way a learner reads it, so a failure
// shows "completed, B, fence 2" next to "running, B, fence 2".
func leaseOf(j queue.Job) string {
	return fmt.Sprintf("%s, %s, fence %d", j.State, j.Worker, j.Fence)
}

// TestTakeoverMintsGreaterFence: once A's lease has expired, B's claim
// takes the job over with a fence strictly greater than A's.
func TestTakeoverMintsGreaterFence(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	a := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")

	jobs.Clock.Set(a.ExpiresAt)
	b := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "B")

	assert.Assert(t, b.Fence > a.Fence,
		"B's takeover got fence %d; want a fence greater than A's %d, or nothing can tell A's calls from B's", b.Fence, a.Fence)
	job := jobs.Get("JOB-1")
	assert.Check(t, cmp.Equal(leaseOf(job), leaseOf(queue.Job{State: queue.Running, Worker: "B", Fence: b.Fence})),
		"JOB-1 on disk after the takeover: want it running under B and the fence B was handed")
	assert.Check(t, cmp.Equal(job.Claims, 2), "claims recorded for JOB-1: want two, A's and B's")
}

// TestFinishWithOldFenceIsRefusedLeaseLost: a worker that comes back after
// its lease lapsed and was claimed again cannot finish with the fence of
// its old lease. The same worker name holds both leases here, so only the
// fence tells the two generations apart.
func TestFinishWithOldFenceIsRefusedLeaseLost(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	old := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
	jobs.Clock.Set(old.ExpiresAt)
	current := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")

	err := jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "A", old.Fence)

	assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.LeaseLost),
		"Finish(JOB-1, fence %d) after fence %d was issued: want stale fence %d refused lease_lost",
		old.Fence, current.Fence, old.Fence)
	job := jobs.Get("JOB-1")
	assert.Check(t, cmp.Equal(leaseOf(job), leaseOf(queue.Job{State: queue.Running, Worker: "A", Fence: current.Fence})),
		"JOB-1 after the refused finish: want it still running under the current lease")
}
