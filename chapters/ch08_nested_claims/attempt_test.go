package nestedclaims

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
)

// TestStaleLeaseTokenCannotStartAttempt: process A's lease lapsed and
// process B took the operator over. A, still running, presents the lease
// it was handed: the attempt re-reads the current lease and refuses it.
func TestStaleLeaseTokenCannotStartAttempt(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	o.add("asg-1")
	a, b := o.process(), o.process()

	o.at(0)
	stale := acquire(t, a)
	o.at(20) // A's lease ran out at minute 15
	current := acquire(t, b)

	_, err := a.AcquireAttempt(ctx, "asg-1", stale)
	assert.Equal(t, reason(t, err), actor.ActorLeaseLost,
		"process A's attempt under stale lease token %d after B's takeover (token %d)", stale.Token, current.Token)
	assert.Equal(t, o.assignment("asg-1").AttemptID, "", "a refused attempt must record nothing")
}

// TestSecondAttemptOnOneAssignmentIsRefused: an assignment has one current
// attempt; a second attempt under the same lease is refused and the first
// stays current.
func TestSecondAttemptOnOneAssignmentIsRefused(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	o.add("asg-1")
	a := o.process()
	l := acquire(t, a)

	first, err := a.AcquireAttempt(ctx, "asg-1", l)
	assert.NilError(t, err, "the first attempt on asg-1")
	_, err = a.AcquireAttempt(ctx, "asg-1", l)

	assert.Equal(t, reason(t, err), actor.ExecutionAttemptHeld,
		"a second attempt on asg-1 under lease token %d while attempt %s is current", l.Token, first.ID)
	assert.Equal(t, o.assignment("asg-1").AttemptID, first.ID, "the current attempt on disk")
}

// TestSupersededAttemptCannotWriteTerminalState: process A's provider
// stalls past its lease; process B takes the operator over and starts a
// new attempt on the same assignment. A's provider then finishes, and its
// COMPLETED write is refused because its attempt is no longer current.
func TestSupersededAttemptCannotWriteTerminalState(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	o.add("asg-1")
	a, b := o.process(), o.process()

	var takeover actor.Attempt
	o.at(0)
	_, err := a.RunAssignment(ctx, "asg-1", func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
		o.at(20) // A stalls past its lease (minute 15)
		lb := acquire(t, b)
		var err error
		takeover, err = b.AcquireAttempt(ctx, "asg-1", lb)
		assert.NilError(t, err, "process B's attempt on asg-1 after taking the operator over")
		return actor.Completed, nil
	})

	assert.Check(t, cmp.Equal(reason(t, err), actor.AttemptLost), "process A's terminal write after its attempt was superseded")
	got := o.assignment("asg-1")
	assert.Equal(t, got.State, actor.Running,
		"process A's superseded attempt wrote asg-1's terminal state over process B's current attempt %s", takeover.ID)
	assert.Equal(t, got.AttemptID, takeover.ID, "the current attempt on disk")
	assert.Equal(t, o.lease().Holder, b.ID(), "process A's way out must not release process B's lease")
}
