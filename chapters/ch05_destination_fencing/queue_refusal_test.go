package destinationfencing

// These tests pin the queue's refusals: who may not claim or finish a job,
// what the refusal says, and that a refusal changes nothing: the job's
// whole row, its claim history and the fence counter stay as they were.

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestCompletedJobCannotBeClaimedAgain: once B finished JOB-1, nobody may
// claim it, not B, not A, not even long after B's lease would have
// expired. The refusal says finished, names no holder, and burns no fence.
func TestCompletedJobCannotBeClaimedAgain(t *testing.T) {
	t.Parallel()
	for _, worker := range []string{"A", "B"} {
		t.Run(worker, func(t *testing.T) {
			t.Parallel()
			jobs := queuetest.New(t)
			jobs.Add("JOB-1", "OP-1", 4)
			q := jobs.Queue(leaseTicks)
			b := queuetest.Claim(t, q, "JOB-1", "B")
			assert.NilError(t, q.Finish(t.Context(), "JOB-1", "B", b.Fence), "set-up: B finishes JOB-1")
			jobs.Clock.Set(b.ExpiresAt + 10*leaseTicks)
			before, minted := jobs.Get("JOB-1"), jobs.Minted()

			_, err := jobs.Queue(leaseTicks).Claim(t.Context(), "JOB-1", worker)

			assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.Finished),
				"Claim(JOB-1, %s) after B completed it: want it refused finished; a completed job is never handed out again", worker)
			var r *queue.Refusal
			if errors.As(err, &r) {
				assert.Check(t, cmp.Equal(r.Holder, ""), "the refusal of a completed job names holder %q; want none, nobody holds it", r.Holder)
				assert.Check(t, !strings.Contains(err.Error(), "held by"), "the refusal of a completed job reads %q; want no holder in it", err)
			}
			assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after the refused claim: want the completed row exactly as it was")
			assert.Check(t, cmp.Equal(jobs.Minted(), minted), "fences minted by the refused claim: want none burned")
		})
	}
}

// TestHeldJobIsRefusedNamingItsHolder: while A's lease runs, B's claim is
// refused lease_held, and the refusal names A, in its Holder and in its
// message, so B's log says whom it waits for. The job keeps A's lease, no
// claim is recorded and no fence is burned.
func TestHeldJobIsRefusedNamingItsHolder(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
	jobs.Clock.Set(1)
	before, minted := jobs.Get("JOB-1"), jobs.Minted()

	_, err := jobs.Queue(leaseTicks).Claim(t.Context(), "JOB-1", "B")

	assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.LeaseHeld), "Claim(JOB-1, B) while A's lease runs: want it refused lease_held")
	var r *queue.Refusal
	if errors.As(err, &r) {
		assert.Check(t, cmp.Equal(r.Holder, "A"), "B's refused claim names holder %q; want A, who holds JOB-1", r.Holder)
		assert.Check(t, strings.Contains(err.Error(), "held by A"), "B's refused claim reads %q; want it to name A as the holder", err)
	}
	assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after B's refused claim: want A's lease exactly as it was")
	assert.Check(t, cmp.Equal(jobs.Minted(), minted), "fences minted by B's refused claim: want none burned")
}

// TestSecondFinishIsRefused: A finished JOB-1; the same finish again, same
// worker, same fence, is refused lease_lost: a completed job has no
// running lease left to finish, and a retry must not pass for a second
// completion.
func TestSecondFinishIsRefused(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	q := jobs.Queue(leaseTicks)
	a := queuetest.Claim(t, q, "JOB-1", "A")
	assert.NilError(t, q.Finish(t.Context(), "JOB-1", "A", a.Fence), "set-up: A's first finish")
	before := jobs.Get("JOB-1")

	err := jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "A", a.Fence)

	assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.LeaseLost),
		"Finish(JOB-1, A, fence %d) a second time: want it refused lease_lost; a job completes once", a.Fence)
	assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after the second finish: want the completed row exactly as it was")
}

// TestNewerFenceFromAnotherJobCannotFinish: A holds JOB-1 under fence 1
// and JOB-2 under fence 2. A fence is bound to the job it was issued for:
// finishing JOB-1 with fence 2, newer but JOB-2's, is refused lease_lost
// and leaves both jobs running exactly as they were.
func TestNewerFenceFromAnotherJobCannotFinish(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	jobs.Add("JOB-2", "OP-2", 4)
	q := jobs.Queue(leaseTicks)
	one := queuetest.Claim(t, q, "JOB-1", "A")
	two := queuetest.Claim(t, q, "JOB-2", "A")
	before1, before2 := jobs.Get("JOB-1"), jobs.Get("JOB-2")

	err := jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "A", two.Fence)

	assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.LeaseLost),
		"Finish(JOB-1, A, fence %d) with JOB-2's fence while JOB-1 runs under fence %d: want it refused lease_lost", two.Fence, one.Fence)
	assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before1), "JOB-1 after a finish with another job's fence: want it still running exactly as it was")
	assert.Check(t, cmp.Equal(jobs.Get("JOB-2"), before2), "JOB-2 after a finish of JOB-1 with JOB-2's fence: want it still running exactly as it was")
}

// TestFinishWithAnotherWorkersFenceIsRefused: B presents the fence A was
// issued. A fence finishes a job only together with the name of the worker
// it was issued to: B is refused lease_lost, and A's lease stays.
func TestFinishWithAnotherWorkersFenceIsRefused(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	a := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
	before := jobs.Get("JOB-1")

	err := jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "B", a.Fence)

	assert.Check(t, cmp.Equal(queuetest.Reason(t, err), queue.LeaseLost),
		"Finish(JOB-1, B, fence %d) with A's fence: want it refused lease_lost; the fence is A's, not B's", a.Fence)
	assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after B's finish with A's fence: want A's lease exactly as it was")
}

// TestUnknownJobIsNotFound: a claim or a finish of a job the queue does not
// hold is queue.ErrNotFound, not a refusal: nobody holds a job that does
// not exist, and no fence is burned for it.
func TestUnknownJobIsNotFound(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	q := jobs.Queue(leaseTicks)

	_, claimErr := q.Claim(t.Context(), "JOB-9", "A")
	finishErr := q.Finish(t.Context(), "JOB-9", "A", 1)

	assert.Check(t, cmp.ErrorIs(claimErr, queue.ErrNotFound), "Claim(JOB-9) of a job that does not exist: want queue.ErrNotFound")
	assert.Check(t, cmp.ErrorIs(finishErr, queue.ErrNotFound), "Finish(JOB-9) of a job that does not exist: want queue.ErrNotFound, not lease_lost")
	assert.Check(t, cmp.Equal(jobs.Minted(), int64(0)), "fences minted by a claim of a job that does not exist: want none")
}

// TestAddingAJobTwiceIsAnError: a job id names one job. Adding JOB-1 again
// while A holds it is an error, and A's running job is not reset to queued.
func TestAddingAJobTwiceIsAnError(t *testing.T) {
	t.Parallel()
	jobs := queuetest.New(t)
	jobs.Add("JOB-1", "OP-1", 4)
	queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
	before := jobs.Get("JOB-1")

	err := jobs.Queue(leaseTicks).Add(t.Context(), "JOB-1", "OP-9", 9)

	assert.Check(t, err != nil, "Add(JOB-1) while JOB-1 exists = no error; want an error, a job id names one job")
	assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), before), "JOB-1 after it was added again: want A's running job exactly as it was")
}
