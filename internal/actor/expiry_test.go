package actor_test

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestLeaseNearTheEndOfTimeIsClamped: an actor lease that would end past
// the largest time is granted, clamped to end at the largest time: held
// until then, acquired by another process then.
func TestLeaseNearTheEndOfTimeIsClamped(t *testing.T) {
	t.Parallel()
	l := actortest.New(t, 15)
	a, b := l.Process(), l.Process()
	l.Clock.Set(math.MaxInt64 - 1)

	lease := actortest.Acquire(t, a, "operator-course")

	assert.Equal(t, lease.ExpiresAt, int64(math.MaxInt64), "expiry of a 15-tick lease taken one tick before the largest time")
	_, err := b.AcquireLease(t.Context(), "operator-course")
	assert.Equal(t, actortest.Reason(t, err), actor.ActorLeaseHeld, "process B's acquire while A's clamped lease runs")
	l.Clock.Set(math.MaxInt64)
	_, err = b.AcquireLease(t.Context(), "operator-course")
	assert.Equal(t, actortest.Reason(t, err), actortest.Granted, "process B's acquire on the tick the clamped lease ends")
}
