package queue_test

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/queue/queuetest"
)

// TestLeaseNearTheEndOfTimeIsClamped: a job lease that would end past the
// largest time is granted, clamped to end at the largest time: held until
// then, taken over then.
func TestLeaseNearTheEndOfTimeIsClamped(t *testing.T) {
	t.Parallel()
	j := queuetest.New(t)
	j.Add("JOB-1", "OP-1", 4)
	a, b := j.Queue(5), j.Queue(5)
	j.Clock.Set(math.MaxInt64 - 1)

	l := queuetest.Claim(t, a, "JOB-1", "A")

	assert.Equal(t, l.ExpiresAt, int64(math.MaxInt64), "expiry of a 5-tick lease taken one tick before the largest time")
	_, err := b.Claim(t.Context(), "JOB-1", "B")
	assert.Equal(t, queuetest.Reason(t, err), queue.LeaseHeld, "B's claim while A's clamped lease runs")
	j.Clock.Set(math.MaxInt64)
	_, err = b.Claim(t.Context(), "JOB-1", "B")
	assert.Equal(t, queuetest.Reason(t, err), queuetest.Accepted, "B's claim on the tick the clamped lease ends")
}
