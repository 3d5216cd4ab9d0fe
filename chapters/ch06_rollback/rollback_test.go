// Package rollback is chapter 6: the destination's mark is a committed
// admission mark. A transaction that saw a newer fence and then rolled back
// leaves the mark where it was.
package rollback

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// failingB is B's first call in the fence-rollback story: fence 2, and the
// controlled failure between the effect and the receipt insert.
var failingB = gate.Request{Fence: 2, Operation: "OP-1", Units: 4, FailAfterEffect: true}

// afterRollback returns a destination where B's failing call has already
// rolled back, and that call's outcome.
func afterRollback(t *testing.T) (*gatetest.Destination, gate.Outcome) {
	t.Helper()
	d := gatetest.New(t)
	out := gatetest.Apply(t, d.Gate(gate.FenceReceipt), failingB)
	if out.Result != gate.RolledBack {
		t.Fatalf("B's call with the controlled failure = %s; want rolled_back", out.Result)
	}
	return d, out
}

// TestRolledBackAttemptLeavesCommittedMark: B's call with fence 2 moved
// the mark and added its units inside its transaction, then rolled back.
// The committed destination is exactly as it was: mark 0, no units, no
// receipt.
func TestRolledBackAttemptLeavesCommittedMark(t *testing.T) {
	t.Parallel()
	d, _ := afterRollback(t)

	assert.Check(t, cmp.Equal(d.State(), gate.State{}),
		"committed destination after B's fence-2 call rolled back: want the committed mark still 0, no units, no receipt")
}

// TestFailingConnectionSeesItsOwnTentativeMark: just before it rolled
// back, the failing transaction saw its own uncommitted work: mark 2, the
// units, and no receipt yet.
func TestFailingConnectionSeesItsOwnTentativeMark(t *testing.T) {
	t.Parallel()
	_, out := afterRollback(t)

	assert.Assert(t, out.UncommittedView != nil, "B's rolled-back call came back without the failing connection's own view; want one")
	assert.Check(t, cmp.Equal(*out.UncommittedView, gate.State{HighestFence: 2, Units: 4}),
		"the failing connection's own view: want its tentative mark 2 and 4 units, no receipt yet")
}

// TestStaleFenceIsJudgedByCommittedMark: after the rollback A arrives
// with fence 1. The destination received fence 2 before, but never
// committed it: A is judged against mark 0 and admitted.
func TestStaleFenceIsJudgedByCommittedMark(t *testing.T) {
	t.Parallel()
	d, _ := afterRollback(t)

	out := gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})

	assert.Equal(t, out.Result, gate.Applied,
		"A's fence 1 after B's fence-2 call rolled back: got %s; want applied against the committed mark 0", out.Result)
	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 1, Units: 4, Receipts: 1}),
		"after A's call: want mark 1, A's 4 units, A's receipt")
}

// TestRetryAfterRollbackReplaysAndCommitsMark: B retries after A applied
// OP-1. The receipt matches, so B's retry is replayed with no second
// effect, and this time mark 2 commits.
func TestRetryAfterRollbackReplaysAndCommitsMark(t *testing.T) {
	t.Parallel()
	d, _ := afterRollback(t)
	gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})

	retry := failingB
	retry.FailAfterEffect = false
	out := gatetest.Apply(t, d.Gate(gate.FenceReceipt), retry)

	assert.Equal(t, out.Result, gate.Replayed,
		"B's retry of OP-1 after A applied it: got %s; want replayed", out.Result)
	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 4, Receipts: 1}),
		"after B's retry: want mark 2 committed, still one effect of 4 units, one receipt")
}

// TestTheMarkNeverGoesBack: a fence below the committed mark is fenced
// every time it comes, not only the first. B applies OP-1 with fence 2;
// A, the stale holder, calls three times with fence 1: OP-1 twice, then
// another operation, OP-2. All are fenced, and the mark stays 2: a mark
// that could go back would admit fence 1's writes again after fence 2's.
func TestTheMarkNeverGoesBack(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	g := d.Gate(gate.FenceReceipt)
	gatetest.Apply(t, g, gate.Request{Fence: 2, Operation: "OP-1", Units: 4})

	for call, op := range []string{"OP-1", "OP-1", "OP-2"} {
		out := gatetest.Apply(t, g, gate.Request{Fence: 1, Operation: op, Units: 4})
		assert.Check(t, cmp.Equal(out.Result, gate.Fenced),
			"A's fence-1 call %d (%s) after B's fence 2 committed: got %s; want fenced, the mark never goes back", call+1, op, out.Result)
		assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 4, Receipts: 1}),
			"after A's fence-1 call %d (%s): want mark 2 and B's one effect", call+1, op)
	}
}
