package lockservice

// These tests are about what the fence does not give. It orders the
// writes it accepts by token, and that is all: a holder whose lease ended
// while it was paused, and whose write reaches the store before its
// successor's first, finds the mark still below its token and is
// accepted; the successor's write is accepted after it. A successor that
// claims the mark with its token before it works shuts that door.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/fencedstore/fencedstoretest"
)

// TestSuccessorThatClaimsTheMarkFirstLeavesOneEffect: A's lease ends
// while A is paused, and B takes the lock; A's late write reaches the
// store before any call of B's, then B writes. Without a claim, the store
// accepts both, in token order: two effects. With B claiming the mark
// with its token as soon as it holds the lock, A's write is refused
// stale_token, and B's is the one effect.
func TestSuccessorThatClaimsTheMarkFirstLeavesOneEffect(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	for _, tc := range []struct {
		name    string
		claim   bool
		effects int64
		why     string
	}{
		{"without-claim", false, 2, "the fence orders writes, it does not exclude them: A's late write with token %d comes before any newer one, and B's with %d after it"},
		{"claim-first", true, 1, "A's late write with token %d must find the mark at B's %d, claimed before B worked, and be refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := fencedstoretest.New(t, "report")
			sa := c.session()
			a := c.acquire(sa, tc.name)
			revoke(t, c, sa)
			b := c.acquire(c.session(), tc.name)
			if tc.claim {
				err := b.Fenced(t.Context(), func(ctx context.Context, token int64) error {
					return d.Store(fencedstore.Fence).ClaimMark(ctx, "report", token, "B")
				})
				assert.NilError(t, err, "B's claim of the mark with token %d", b.Token())
			}

			// A looked at its session before it was paused: what reaches
			// the store now is its write alone.
			lateErr := d.Store(fencedstore.Fence).Write(t.Context(), "report", a.Token(), "A")
			err := b.Fenced(t.Context(), func(ctx context.Context, token int64) error {
				return d.Store(fencedstore.Fence).Write(ctx, "report", token, "B")
			})

			assert.NilError(t, err, "B's write with token %d, the newest", b.Token())
			assert.Check(t, cmp.Equal(d.Get("report").Writes, tc.effects),
				"writes that took effect (A's late write answered %v); want %d: "+tc.why, lateErr, tc.effects, a.Token(), b.Token())
			if tc.claim {
				reason, _ := fencedstore.ReasonOf(lateErr)
				assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken),
					"A's late write with token %d after B's claim with %d = %v; want refused stale_token", a.Token(), b.Token(), lateErr)
			}
		})
	}
}

// TestAClaimOfTheMarkIsFencedLikeAWrite: a claim moves the mark and has
// no effect, and the fence judges it as it judges a write. One with a
// token below the mark is refused stale_token and changes nothing, not
// even the log: a holder whose successor has claimed the mark learns it
// is late before it works. One with the mark's own token, the holder
// claiming again, is accepted, and the mark stays. Only the unfenced
// store of --fence off takes a stale claim.
func TestAClaimOfTheMarkIsFencedLikeAWrite(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	s := d.Store(fencedstore.Fence)
	assert.NilError(t, s.ClaimMark(t.Context(), "report", 15, "B"), "set-up: B claims the mark with token 15")
	before := d.Accepted()

	err := s.ClaimMark(t.Context(), "report", 14, "A")

	reason, _ := fencedstore.ReasonOf(err)
	assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken), "A's claim with token 14 below the mark 15 = %v; want refused stale_token", err)
	assert.Check(t, cmp.Equal(d.Get("report"), fencedstore.Resource{Key: "report", Mark: 15}),
		"the key after a refused claim: the mark must stay at 15, with no effect")
	assert.Check(t, cmp.DeepEqual(d.Accepted(), before), "a refused claim was logged")

	assert.Check(t, s.ClaimMark(t.Context(), "report", 15, "B"), "B's second claim with the mark's own token 15: an equal token is admitted")
	assert.Check(t, cmp.Equal(d.Get("report"), fencedstore.Resource{Key: "report", Mark: 15}),
		"the key after B's claim again: the mark stays at 15, and a claim has no effect")

	assert.Check(t, d.Store(fencedstore.None).ClaimMark(t.Context(), "report", 3, "A"),
		"the unfenced store refused a claim: it takes every token")
	assert.Check(t, cmp.Equal(d.Get("report").Mark, int64(15)), "a stale claim moved the mark down")
}
