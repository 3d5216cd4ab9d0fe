package destinationfencing

// These tests break the queue's file on purpose, with a trigger that
// aborts a write or a row that cannot be read, and pin what a caller hears
// when a queue write fails: an error, never a lease and never a refusal,
// and nothing changed.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestFailedQueueWriteIsAnErrorAndChangesNothing: a claim or finish whose
// transaction cannot do all its work reports an error, not a win and not
// a refusal, and commits none of it: the job's whole row, its claim
// history and the fence counter read back exactly as before. A worker
// that took such a claim for a win would work without a lease; one that
// took it for a refusal would give up a job nobody holds.
func TestFailedQueueWriteIsAnErrorAndChangesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		claimed bool // A claims JOB-1 before the queue breaks
		breaks  func(*queuetest.Jobs) (repair func())
		act     func(t *testing.T, q *queue.Queue, fence int64) error
	}{
		{"claim-without-a-fence", false, (*queuetest.Jobs).BreakFenceCounter, claimAsB},
		{"claim-without-its-history", false, (*queuetest.Jobs).BreakClaimHistory, claimAsB},
		{"claim-that-cannot-write-the-job", false, (*queuetest.Jobs).BreakJobWrites, claimAsB},
		{"claim-of-an-unreadable-job", false, spoilJob1, claimAsB},
		{"finish-that-cannot-write-the-job", true, (*queuetest.Jobs).BreakJobWrites, finishAsA},
		{"refused-finish-of-an-unreadable-job", true, spoilJob1, finishAsB},
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
			repair := tc.breaks(jobs)

			err := tc.act(t, jobs.Queue(leaseTicks), fence)

			repair()
			_, refused := queue.ReasonOf(err)
			assert.Check(t, err != nil && !refused, "%s: got %v; want an error that is neither a win nor a refusal", tc.name, err)
			assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after %s: want the row exactly as it was", tc.name)
			assert.Check(t, cmp.Equal(jobs.Minted(), minted), "fences minted by %s: want none", tc.name)
		})
	}
}

// spoilJob1 makes JOB-1's row unreadable.
func spoilJob1(j *queuetest.Jobs) func() { return j.SpoilUnits("JOB-1") }

// claimAsB is B's claim of JOB-1.
func claimAsB(t *testing.T, q *queue.Queue, _ int64) error {
	_, err := q.Claim(t.Context(), "JOB-1", "B")
	return err
}

// finishAsA is A's finish of JOB-1 with its own fence.
func finishAsA(t *testing.T, q *queue.Queue, fence int64) error {
	return q.Finish(t.Context(), "JOB-1", "A", fence)
}

// finishAsB is B's finish of JOB-1 with A's fence: a finish the queue
// refuses, and must read the job's row to explain.
func finishAsB(t *testing.T, q *queue.Queue, fence int64) error {
	return q.Finish(t.Context(), "JOB-1", "B", fence)
}
