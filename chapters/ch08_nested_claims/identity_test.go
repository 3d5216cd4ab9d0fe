// Package nestedclaims is chapter 8: an actor lease, an execution attempt
// bound to the lease it descends from, and the ordinary run path that
// cannot go around either.
package nestedclaims

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
	"github.com/fencelab/fencelab/internal/identity"
)

// uuid4 is the canonical form of a random (version 4) UUID.
var uuid4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestProcessIdentityIsARandomUUIDNotAPID: every process start gets a
// fresh random UUID. Two starts inside one OS process share a PID, as two
// workers in two containers can, or a worker and the process later handed
// its PID after it exited; they still get different identities.
func TestProcessIdentityIsARandomUUIDNotAPID(t *testing.T) {
	t.Parallel()
	first, second := identity.New(), identity.New()

	assert.Check(t, first != second,
		"two process starts got the same identity %q: it cannot tell a restarted process from the old one", first)
	assert.Check(t, first != strconv.Itoa(os.Getpid()), "the identity is the PID %s, which the OS reuses", first)
	assert.Check(t, uuid4.MatchString(first), "identity %q is not a random (version 4) UUID", first)
}

// TestReplacementWithSamePIDCannotUseOldLease: process A holds the
// operator's lease and stops answering; a replacement is started. Both run
// in this one test process, so they share a PID, as a replacement in a new
// container (PID 1 again) or one handed a PID freed on the same host would
// share it with A. The replacement must not work under A's live lease.
func TestReplacementWithSamePIDCannotUseOldLease(t *testing.T) {
	t.Parallel()
	o := actortest.New(t, leaseMinutes)
	o.Add(operator, "asg-1")
	old := actortest.Acquire(t, o.Process(), operator)
	replacement := o.Process()

	lease, err := replacement.CurrentLease(t.Context(), operator)
	assert.NilError(t, err, "the replacement could not read the operator's lease")
	_, err = replacement.AcquireAttempt(t.Context(), "asg-1", lease)

	assert.Check(t, cmp.Equal(actortest.Reason(t, err), actor.ActorLeaseLost),
		"the replacement, with the old process's PID, started an attempt under the old process's live lease (token %d): it inherited a lease it never acquired",
		old.Token)
}
