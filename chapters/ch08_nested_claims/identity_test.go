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

	"github.com/fencelab/fencelab/internal/identity"
)

// uuid4 is the canonical form of a random (version 4) UUID.
var uuid4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestProcessIdentityIsARandomUUIDNotAPID: every process start gets a
// fresh random UUID. Two starts inside one OS process (the same PID, the
// limit of PID reuse) still get different identities.
func TestProcessIdentityIsARandomUUIDNotAPID(t *testing.T) {
	t.Parallel()
	first, second := identity.New(), identity.New()

	assert.Check(t, first != second,
		"two process starts got the same identity %q: it cannot tell a restarted process from the old one", first)
	assert.Check(t, first != strconv.Itoa(os.Getpid()), "the identity is the PID %s, which the OS reuses", first)
	assert.Check(t, uuid4.MatchString(first), "identity %q is not a random (version 4) UUID", first)
}
