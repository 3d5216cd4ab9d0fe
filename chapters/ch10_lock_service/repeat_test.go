package lockservice

// This file repeats each call that changes the store with the very token
// and writer that already succeeded: the holder's retry of a call whose
// answer it never got. The fence orders holders; it does not recognise a
// repeat, so a repeated write is a second effect by contract, while a key
// completes once.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/fencedstore/fencedstoretest"
)

// TestWritingTwiceWithTheSameTokenIsASecondEffectByContract: B writes
// report with token 15, then writes it again with token 15. A token equal
// to the mark is admitted, so the repeat is accepted and counts a second
// effect: writes 2, the mark still 15, and both writes in the log. A
// destination that must apply a write once needs more than a fence.
func TestWritingTwiceWithTheSameTokenIsASecondEffectByContract(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	s := d.Store(fencedstore.Fence)
	assert.NilError(t, s.Write(t.Context(), "report", 15, "B"), "set-up: B's first write with token 15")

	err := s.Write(t.Context(), "report", 15, "B")

	assert.Check(t, err, "B's second write with the same token 15 = %v; want accepted: an equal token is admitted", err)
	assert.Check(t, cmp.Equal(d.Get("report"), fencedstore.Resource{Key: "report", Mark: 15, Writes: 2}),
		"report after B wrote twice with token 15; want two effects under mark 15")
	assert.Check(t, cmp.DeepEqual(d.Accepted(), []fencedstore.Entry{
		{Seq: 1, Key: "report", Op: "write", Token: 15, Writer: "B"},
		{Seq: 2, Key: "report", Op: "write", Token: 15, Writer: "B"},
	}), "the log after B wrote twice with token 15; want both writes")
}

// TestCompletingTwiceWithTheSameTokenIsRefusedAsTerminal: B completes
// report with token 15, then completes it again with token 15. The key is
// already completed, so the repeat is refused terminal, not stale_token
// (the token equals the mark) and not accepted: the key stays completed
// by token 15, its mark and effects unchanged, and the log holds one
// completion.
func TestCompletingTwiceWithTheSameTokenIsRefusedAsTerminal(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	s := d.Store(fencedstore.Fence)
	assert.NilError(t, s.Write(t.Context(), "report", 15, "B"), "set-up: B's write with token 15")
	assert.NilError(t, s.Complete(t.Context(), "report", 15, "B"), "set-up: B's first completion with token 15")
	log := d.Accepted()

	err := s.Complete(t.Context(), "report", 15, "B")

	reason, _ := fencedstore.ReasonOf(err)
	assert.Check(t, cmp.Equal(reason, fencedstore.Terminal),
		"B's second completion with the same token 15 = %v; want refused terminal: a key completes once", err)
	assert.Check(t, cmp.Equal(d.Get("report"), fencedstore.Resource{Key: "report", Mark: 15, Writes: 1, DoneToken: 15}),
		"report after B's repeated completion; want it still completed by token 15, one effect, mark 15")
	assert.Check(t, cmp.DeepEqual(d.Accepted(), log), "the repeated completion was logged")
}
