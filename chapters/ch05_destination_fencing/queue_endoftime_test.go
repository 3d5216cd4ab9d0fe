package destinationfencing

// This file holds the queue's lease at the end of time: ticks are an
// int64, and a lease taken near the largest one would end past it.

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestQueueLeaseNearTheEndOfTimeIsClamped: A claims JOB-1 one tick before
// the largest tick, for a lease of 5. The lease ends at the largest tick
// instead of wrapping into the distant past, where it would be over the
// moment it was granted: one tick before that end B is refused, naming A,
// and A's fence still finishes the job; on that last tick B takes over.
func TestQueueLeaseNearTheEndOfTimeIsClamped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		now       int64 // when B claims and A finishes
		stillHeld bool  // A's lease has not ended at now
	}{
		{"one-tick-before-the-end", math.MaxInt64 - 1, true},
		{"at-the-end", math.MaxInt64, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jobs := queuetest.New(t)
			jobs.Add("JOB-1", "OP-1", 4)
			jobs.Clock.Set(math.MaxInt64 - 1)
			a := queuetest.Claim(t, jobs.Queue(leaseTicks), "JOB-1", "A")
			assert.Equal(t, a.ExpiresAt, int64(math.MaxInt64),
				"end of A's %d-tick lease taken one tick before the largest tick: want the largest tick, not a wrapped one", leaseTicks)

			jobs.Clock.Set(tc.now)
			_, err := jobs.Queue(leaseTicks).Claim(t.Context(), "JOB-1", "B")

			if tc.stillHeld {
				assert.Equal(t, queuetest.Reason(t, err), queue.LeaseHeld, "B's claim at tick %d, inside A's clamped lease", tc.now)
				assert.NilError(t, jobs.Queue(leaseTicks).Finish(t.Context(), "JOB-1", "A", a.Fence),
					"A's finish at tick %d, inside its clamped lease", tc.now)
				return
			}
			assert.Equal(t, queuetest.Reason(t, err), queuetest.Accepted, "B's claim on the tick A's clamped lease ends")
		})
	}
}
