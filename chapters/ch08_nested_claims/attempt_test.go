package nestedclaims

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestStaleLeaseTokenCannotStartAttempt: process A's lease lapsed and
// process B took the operator over. A, still running, presents the lease
// it was handed: the attempt re-reads the current lease and refuses it.
func TestStaleLeaseTokenCannotStartAttempt(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()

	o.Clock.Set(0)
	stale := actortest.Acquire(t, a, operator)
	o.Clock.Set(20) // A's lease ran out at minute 15
	current := actortest.Acquire(t, b, operator)

	_, err := a.AcquireAttempt(t.Context(), "asg-1", stale)
	assert.Equal(t, actortest.Reason(t, err), actor.ActorLeaseLost,
		"process A's attempt under stale lease token %d after B's takeover (token %d) was not refused as a lost lease",
		stale.Token, current.Token)
	assert.Equal(t, o.Assignment("asg-1").AttemptID, "", "process A's refused attempt was recorded on asg-1 anyway")
}

// TestSecondAttemptOnOneAssignmentIsRefused: an assignment has one current
// attempt; a second attempt under the same lease is refused and the first
// stays current.
func TestSecondAttemptOnOneAssignmentIsRefused(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a := o.Process()
	l := actortest.Acquire(t, a, operator)

	first, err := a.AcquireAttempt(ctx, "asg-1", l)
	assert.NilError(t, err, "process A's first attempt on asg-1 was not granted")
	_, err = a.AcquireAttempt(ctx, "asg-1", l)

	assert.Equal(t, actortest.Reason(t, err), actor.ExecutionAttemptHeld,
		"a second attempt on asg-1 under lease token %d while attempt %s is current was not refused", l.Token, first.ID)
	assert.Equal(t, o.Assignment("asg-1").AttemptID, first.ID,
		"the refused second attempt replaced attempt %s as asg-1's current attempt", first.ID)
}

// TestSupersededAttemptCannotWriteTerminalState: process A's provider for
// asg-1 stalls past A's lease. A itself takes the operator again and starts
// a fresh attempt on asg-1, the way a retry inside one process would. The
// same process holds the new lease, so the lease cannot tell the two runs
// apart; the attempt can. When the stalled run's provider returns, its
// COMPLETED is refused because its attempt is no longer the current one.
func TestSupersededAttemptCannotWriteTerminalState(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a := o.Process()

	var relet actor.Lease
	var retry actor.Attempt
	o.Clock.Set(0)
	_, err := a.RunAssignment(t.Context(), "asg-1", func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
		o.Clock.Set(20) // the first run stalls past its lease (minute 15)
		relet = actortest.Acquire(t, a, operator)
		var err error
		retry, err = a.AcquireAttempt(ctx, "asg-1", relet)
		assert.NilError(t, err, "process A's retry could not start a fresh attempt on asg-1 under its new lease")
		return actor.Completed, nil
	})

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.AttemptLost),
		"process A's stalled first run of asg-1 was not refused as a superseded attempt")
	got := o.Assignment("asg-1")
	assert.Equal(t, got.State, actor.Running,
		"process A's superseded attempt wrote asg-1's terminal state over its own retry's current attempt %s", retry.ID)
	assert.Equal(t, got.AttemptID, retry.ID, "the stalled run took asg-1's current attempt back from the retry's %s", retry.ID)
	assert.Check(t, cmp.DeepEqual(o.CurrentLease(operator), relet),
		"the stalled run's way out changed the lease (token %d) its retry now holds", relet.Token)
}
