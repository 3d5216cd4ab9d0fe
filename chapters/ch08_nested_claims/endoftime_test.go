package nestedclaims

// This file holds the actor lease at the end of time: minutes are an
// int64, and a lease taken near the largest one would end past it.

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestActorLeaseNearTheEndOfTimeIsClamped: process A acquires the
// operator's lease one minute before the largest minute. The lease ends at
// the largest minute instead of wrapping into the distant past, where it
// would be over the moment it was granted: one minute before that end
// process B is refused and A still starts an attempt under its lease; on
// that last minute B acquires the lease.
func TestActorLeaseNearTheEndOfTimeIsClamped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		now       int64 // when B acquires and A starts its attempt
		stillHeld bool  // A's lease has not ended at now
	}{
		{"one-minute-before-the-end", math.MaxInt64 - 1, true},
		{"at-the-end", math.MaxInt64, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a, b := o.Process(), o.Process()
			o.Clock.Set(math.MaxInt64 - 1)
			held := actortest.Acquire(t, a, operator)
			assert.Equal(t, held.ExpiresAt, int64(math.MaxInt64),
				"end of process A's %d-minute lease taken one minute before the largest minute: want the largest minute, not a wrapped one", leaseMinutes)

			o.Clock.Set(tc.now)
			_, err := b.AcquireLease(t.Context(), operator)

			if tc.stillHeld {
				assert.Equal(t, actortest.Reason(t, err), actor.ActorLeaseHeld, "process B's acquire at minute %d, inside A's clamped lease", tc.now)
				_, err := a.AcquireAttempt(t.Context(), "asg-1", held)
				assert.NilError(t, err, "process A's attempt at minute %d, under its clamped lease", tc.now)
				return
			}
			assert.Equal(t, actortest.Reason(t, err), actortest.Granted, "process B's acquire on the minute A's clamped lease ends")
		})
	}
}
