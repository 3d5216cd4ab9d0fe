package destinationfencing

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestQueueLeaseEndsAtItsExpiryTick: A claims JOB-1 at tick 0, lease until
// tick 5. At tick 4 the lease is still A's: B's claim is refused naming A,
// A's own second claim is refused too (claiming again does not stretch a
// lease), and A's fence still finishes the job. At tick 5 it is over:
// whoever claims, B or A itself, gets a new lease with a greater fence,
// and A's old fence can no longer finish.
func TestQueueLeaseEndsAtItsExpiryTick(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		tick   int64 // the tick of the second claim, relative to A's expiry
		worker string
		want   queue.Reason // the second claim's answer
		finish queue.Reason // A's finish with its first fence, after that claim
		why    string       // the property, in a learner's words
	}{
		{"challenger-one-tick-before", -1, "B", queue.LeaseHeld, queuetest.Accepted,
			"one tick before its expiry the lease is still A's: B waits, and A's fence still finishes"},
		{"challenger-at-expiry", 0, "B", queuetest.Accepted, queue.LeaseLost,
			"at its expiry tick the lease is over: B takes over, and A's fence no longer finishes"},
		{"holder-one-tick-before", -1, "A", queue.LeaseHeld, queuetest.Accepted,
			"one tick before its expiry A's second claim does not stretch its lease, and A's fence still finishes"},
		{"holder-at-expiry", 0, "A", queuetest.Accepted, queue.LeaseLost,
			"at its expiry tick even A gets a new lease, and its old fence no longer finishes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jobs := queuetest.New(t)
			jobs.Add("JOB-1", "OP-1", 4)
			a := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
			held := jobs.Get("JOB-1")
			now := a.ExpiresAt + tc.tick
			jobs.Clock.Set(now)

			second, err := jobs.Queue(leaseTicks).Claim(t.Context(), "JOB-1", tc.worker)

			assert.Check(t, cmp.Equal(queuetest.Reason(t, err), tc.want),
				"Claim(JOB-1, %s) at tick %d, A's lease ending at %d: %s", tc.worker, now, a.ExpiresAt, tc.why)
			want := held
			if tc.want == queuetest.Accepted {
				assert.Check(t, second.Fence > a.Fence,
					"%s's claim at tick %d got fence %d; want one greater than A's %d: a new lease is a new generation", tc.worker, now, second.Fence, a.Fence)
				want = queue.Job{ID: "JOB-1", Operation: "OP-1", Units: 4, State: queue.Running,
					Worker: tc.worker, Fence: second.Fence, ExpiresAt: now + leaseTicks, Claims: 2}
			} else if r := (*queue.Refusal)(nil); errors.As(err, &r) {
				assert.Check(t, cmp.Equal(r.Holder, "A"), "%s's refused claim at tick %d names holder %q; want A", tc.worker, now, r.Holder)
			}
			assert.Check(t, cmp.Equal(jobs.Get("JOB-1"), want), "JOB-1 after %s's claim at tick %d: %s", tc.worker, now, tc.why)

			err = jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "A", a.Fence)

			assert.Check(t, cmp.Equal(queuetest.Reason(t, err), tc.finish),
				"Finish(JOB-1, A, fence %d) after %s's claim at tick %d: %s", a.Fence, tc.worker, now, tc.why)
		})
	}
}
