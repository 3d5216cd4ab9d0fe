package rollback

// These tests break the destination's file on purpose, with a trigger that
// aborts a write or a value that cannot be read, and pin what an error
// from Apply means: nothing committed, so the caller may retry.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestFailedDestinationWriteIsAnErrorAndCommitsNothing: after A's OP-1
// applied, B's call meets a destination that cannot do part of its work:
// write the mark, the effect or the receipt, read A's receipt, or read its
// own view before its controlled failure; or whose write of the mark ends
// the transaction, so that the ROLLBACK after it fails as well. Apply answers with an error and
// no answer (never fenced, conflict, replayed or rolled_back made up from
// what it could not read or write), and none of the call commits: the
// committed state and the arrivals log read back as before. Had part of it
// committed, a retry after the error could apply a second time.
func TestFailedDestinationWriteIsAnErrorAndCommitsNothing(t *testing.T) {
	t.Parallel()
	newOp := gate.Request{Fence: 2, Operation: "OP-2", Units: 3}
	retry := gate.Request{Fence: 2, Operation: "OP-1", Units: 4}
	failing := func(req gate.Request) gate.Request { req.FailAfterEffect = true; return req }
	for _, tc := range []struct {
		name   string
		when   string // what the destination cannot do, in words
		breaks func(*gatetest.Destination) (repair func())
		req    gate.Request
	}{
		{"mark-cannot-be-written", "the mark cannot be written", (*gatetest.Destination).BreakMarkWrites, newOp},
		{"effect-cannot-be-written", "the counter cannot be written", (*gatetest.Destination).BreakEffect, newOp},
		{"receipt-cannot-be-written", "no receipt can be written", (*gatetest.Destination).BreakReceipts, newOp},
		{"receipt-cannot-be-read", "A's receipt cannot be read", spoilReceiptOP1, retry},
		{"receipt-cannot-be-read-by-a-failing-call", "A's receipt cannot be read, in a call that fails after its effect", spoilReceiptOP1, failing(retry)},
		{"own-view-cannot-be-read", "its own view cannot be read at its failure point", (*gatetest.Destination).SpoilCounter, failing(newOp)},
		{"mark-write-ends-the-transaction", "the mark's write ends the transaction, so its ROLLBACK fails too", (*gatetest.Destination).EndMarkTransactions, newOp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := gatetest.New(t)
			gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})
			before, log := d.State(), d.Arrivals()
			repair := tc.breaks(d)

			out, err := d.Gate(gate.FenceReceipt).Apply(t.Context(), tc.req)

			repair()
			assert.Check(t, err != nil && out.Result == "",
				"B's call when %s: got answer %q and error %v; want an error and no answer", tc.when, out.Result, err)
			assert.Check(t, !errors.Is(err, gate.ErrNotLogged),
				"B's call when %s: error %v says the answer stands; want an error that says nothing committed", tc.when, err)
			assert.Check(t, cmp.Equal(d.State(), before), "committed destination after B's failed call (%s): want it as it was", tc.when)
			assert.Check(t, cmp.DeepEqual(d.Arrivals(), log), "arrivals log after B's failed call (%s): want it as it was", tc.when)
		})
	}
}

// spoilReceiptOP1 makes the receipt A's call left unreadable.
func spoilReceiptOP1(d *gatetest.Destination) func() { return d.SpoilReceipt("OP-1") }
