package nestedclaims

// This file holds the order of a run's writes as another process sees
// them: no record says a run is going, or has ended, before the step it
// describes has committed.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestProviderRunsOnlyOnceRunningIsCommitted: process A runs asg-1. While
// its provider works, another process reading the ledger sees asg-1
// RUNNING under the run's own attempt, and that attempt's line in the log
// with no outcome yet: the work never starts before RUNNING is committed,
// and nothing says it ended while it runs. Afterwards the log line carries
// the outcome the provider gave.
func TestProviderRunsOnlyOnceRunningIsCommitted(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	var during actor.Assignment
	var logDuring []actortest.AttemptRecord
	provider := func(context.Context, actor.Assignment) (actor.State, error) {
		during, logDuring = o.Assignment("asg-1"), o.Attempts("asg-1")
		return actor.Blocked, nil
	}

	run, err := o.Process().RunAssignment(t.Context(), "asg-1", provider)

	assert.NilError(t, err, "process A's run of asg-1")
	assert.Check(t, cmp.Equal(during.State, actor.Running), "asg-1 as another process saw it while the provider worked: want RUNNING committed before the work starts")
	assert.Check(t, cmp.Equal(during.AttemptID, run.Attempt.ID), "the attempt on asg-1 while the provider worked: want the run's own")
	assert.Assert(t, cmp.Len(logDuring, 1), "lines in asg-1's attempts log while the provider worked")
	assert.Check(t, cmp.Equal(logDuring[0].Outcome, ""), "the outcome in asg-1's attempts log while the provider still worked: want none yet")
	after := o.Attempts("asg-1")
	assert.Assert(t, cmp.Len(after, 1), "lines in asg-1's attempts log after the run")
	assert.Check(t, cmp.Equal(after[0].Outcome, string(actor.Blocked)), "the outcome in asg-1's attempts log after the run")
}
