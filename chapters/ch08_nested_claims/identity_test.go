// Package nestedclaims is chapter 8: an actor lease, an execution attempt
// bound to the lease it descends from, and the ordinary run path that
// cannot go around either.
package nestedclaims

import (
	"encoding/hex"
	"os"
	"regexp"
	"strconv"
	"strings"
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

// TestProcessIdentityHas122IndependentRandomBits: a good identity is a
// UUID in its canonical form (8-4-4-4-12 lowercase hex digits) whose
// version nibble says 4 (random) and whose variant bits say 10 (RFC 9562);
// the other 122 bits are random. Over 64 fresh identities, every one of
// those bits takes both values, and no bit always equals, or always
// opposes, another: a bit that is fixed, or copied from another, is a bit
// of randomness lost, and doubles the odds that two processes share a name.
//
// A correct New fails this test with a probability below 10^-15.
func TestProcessIdentityHas122IndependentRandomBits(t *testing.T) {
	t.Parallel()
	const samples = 64 // one bit of each uint64 below per identity
	var bits [128]uint64
	for i := range samples {
		id := identity.New()
		raw := identityBytes(t, id)
		assert.Check(t, cmp.Equal(raw[6]>>4, byte(4)), "identity %q: version nibble %x; want 4 (random)", id, raw[6]>>4)
		assert.Check(t, cmp.Equal(raw[8]>>6, byte(2)), "identity %q: variant bits %02b; want 10 (RFC 9562)", id, raw[8]>>6)
		for b := range bits {
			if raw[b/8]>>(7-b%8)&1 == 1 {
				bits[b] |= 1 << i
			}
		}
	}
	var random []int // the positions neither the version nor the variant fixes
	for b := range bits {
		if b/4 != 12 && b != 64 && b != 65 {
			random = append(random, b)
		}
	}
	assert.Equal(t, len(random), 122, "random bit positions")
	for i, b := range random {
		assert.Check(t, bits[b] != 0 && bits[b] != ^uint64(0),
			"bit %d of the identity was the same in %d fresh identities: it is not random", b, samples)
		for _, c := range random[i+1:] {
			assert.Check(t, bits[b] != bits[c] && bits[b] != ^bits[c],
				"bits %d and %d of the identity were equal (or opposite) in all %d fresh identities: one copies the other", b, c, samples)
		}
	}
}

// identityBytes returns the 16 bytes a canonical UUID spells, failing the
// test if id is not in the canonical form.
func identityBytes(t *testing.T, id string) [16]byte {
	t.Helper()
	var raw [16]byte
	groups := strings.Split(id, "-")
	lengths := []int{8, 4, 4, 4, 12}
	if len(groups) != len(lengths) {
		t.Fatalf("identity %q is not five groups of hex digits joined by dashes", id)
	}
	for i, g := range groups {
		if len(g) != lengths[i] || strings.ToLower(g) != g {
			t.Fatalf("identity %q: group %d is %q; want %d lowercase hex digits", id, i+1, g, lengths[i])
		}
	}
	n, err := hex.Decode(raw[:], []byte(strings.Join(groups, "")))
	if err != nil || n != len(raw) {
		t.Fatalf("identity %q is not 32 hex digits: %v", id, err)
	}
	return raw
}
