package nestedclaims

import (
	"context"
	"regexp"
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

// TestSupersededAttemptNeverStarts: process A's first run of asg-1 records
// its attempt and stalls just before marking asg-1 RUNNING. Its lease runs
// out, and a retry in the same process, on another goroutine, takes the
// operator again and starts a fresh attempt on asg-1. When the first run
// wakes, A holds the live lease its retry's attempt descends from, but
// the first run's attempt is no longer current: its start is refused and
// its provider never runs.
func TestSupersededAttemptNeverStarts(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a := o.Process()

	var retry actor.Attempt
	var retryErr error
	stopped := stallBeforeStart(o, a, "asg-1", func(ctx context.Context) {
		l, err := a.AcquireLease(ctx, operator)
		if err != nil {
			retryErr = err
			return
		}
		retry, retryErr = a.AcquireAttempt(ctx, "asg-1", l)
	})
	o.Clock.Set(0)
	var invoked bool
	_, err := a.RunAssignment(t.Context(), "asg-1", complete(&invoked))

	assert.Assert(t, *stopped, "process A's first run began no transaction between recording its attempt and marking asg-1 RUNNING")
	assert.NilError(t, retryErr, "process A's retry could not take the operator again and start a fresh attempt on asg-1")
	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.AttemptLost),
		"process A's first run of asg-1, superseded by its own retry's attempt %s, was not refused as a superseded attempt", retry.ID)
	assert.Check(t, !invoked, "process A's superseded first run invoked its provider for asg-1")
	got := o.Assignment("asg-1")
	assert.Check(t, cmp.Equal(got.State, actor.Created), "process A's superseded first run moved asg-1 to %s", got.State)
	assert.Check(t, cmp.Equal(got.AttemptID, retry.ID), "asg-1's current attempt is not the retry's %s", retry.ID)
}

// attemptID is the form of an attempt id: att_ and 16 lowercase hex
// digits, 64 random bits.
var attemptID = regexp.MustCompile(`^att_[0-9a-f]{16}$`)

// TestAttemptsLogRecordsEveryRun: the execution_attempts table is the
// history of asg-1. Process A's run starts at minute 0 and stalls past its
// lease; process B takes over at minute 20 and completes asg-1. Both
// attempts are recorded, each under an id of its own (att_ and 16 random
// hex digits), with its process, the lease token it descends from, its
// own token and its start; only B's, which finished, records an outcome.
// A's refused terminal write records none.
func TestAttemptsLogRecordsEveryRun(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a, b := o.Process(), o.Process()

	var runB actor.Run
	var errB error
	o.Clock.Set(0)
	runA, errA := a.RunAssignment(t.Context(), "asg-1", func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
		o.Clock.Set(20)
		runB, errB = b.RunAssignment(ctx, "asg-1", states(actor.Completed, nil))
		return actor.Completed, nil
	})
	assert.NilError(t, errB, "process B could not take over and complete asg-1")
	assert.Equal(t, actortest.Reason(t, errA), actor.AttemptLost, "process A's stalled run of asg-1 after B took over")

	record := func(r actor.Run, startedAt int64, outcome string) actortest.AttemptRecord {
		return actortest.AttemptRecord{ID: r.Attempt.ID, Assignment: "asg-1", Actor: operator, Process: r.Attempt.Process,
			LeaseToken: r.Lease.Token, Token: r.Attempt.Token, StartedAt: startedAt, Outcome: outcome}
	}
	want := []actortest.AttemptRecord{record(runA, 0, ""), record(runB, 20, string(actor.Completed))}
	assert.Check(t, cmp.DeepEqual(o.Attempts("asg-1"), want), "asg-1's attempts log after A's stalled run and B's takeover")
	for _, r := range []actor.Run{runA, runB} {
		assert.Check(t, attemptID.MatchString(r.Attempt.ID), "attempt id %q is not att_ and 16 hex digits", r.Attempt.ID)
	}
	assert.Check(t, runA.Attempt.ID != runB.Attempt.ID, "process A's and process B's attempts got the same id %s", runA.Attempt.ID)
}
