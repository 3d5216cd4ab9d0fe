package nestedclaims

// This file holds a run that fails twice: its attempt is refused, and the
// release of its lease after that fails too. The caller must hear both,
// the refusal first: it says why the run did nothing, and the failed
// release says the actor stays held until the lease runs out.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"modernc.org/sqlite"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
)

// TestFailedReleaseStillReportsTheRunsRefusal: asg-1 is COMPLETED. Process
// A runs it again: the lease is granted, the attempt is refused
// assignment_finished, and the release after it fails. RunAssignment's
// error still names the refusal (actor.ReasonOf finds it), and carries the
// release's failure too, and A is still the lease's holder, as the
// failed release left it.
func TestFailedReleaseStillReportsTheRunsRefusal(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	a := o.Process()
	var invoked bool
	_, err := a.RunAssignment(t.Context(), "asg-1", complete(&invoked))
	assert.NilError(t, err, "set-up: the first run of asg-1 completes it")
	o.BreakWrites("UPDATE", "actor_leases", "NEW.holder IS NULL")
	invoked = false

	_, err = a.RunAssignment(t.Context(), "asg-1", complete(&invoked))

	reason, refused := actor.ReasonOf(err)
	assert.Check(t, refused && reason == actor.AssignmentFinished,
		"process A's second run of the completed asg-1, whose release failed = %v; want the run's refusal, assignment_finished, still there", err)
	var failure *sqlite.Error
	assert.Check(t, errors.As(err, &failure),
		"process A's second run of asg-1, whose release failed = %v; want the failed release reported too: the actor stays held", err)
	assert.Check(t, !invoked, "the provider ran for an assignment already COMPLETED")
	assert.Check(t, cmp.Equal(o.CurrentLease(operator).Holder, a.ID()), "the operator's lease after the failed release: want it still A's")
}
