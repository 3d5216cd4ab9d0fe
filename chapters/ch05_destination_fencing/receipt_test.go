package destinationfencing

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestReceiptReplaysWithoutSecondEffect: A applied OP-1 under fence 1 and
// left a receipt. B's call for the same operation and units under fence 2
// is replayed: no second effect, and the mark still advances to 2.
func TestReceiptReplaysWithoutSecondEffect(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})

	out, err := d.Gate(gate.FenceReceipt).Apply(t.Context(), gate.Request{Fence: 2, Operation: "OP-1", Units: 4})

	assert.Check(t, err == nil && out.Result == gate.Replayed,
		"B's retry of OP-1 with the same 4 units: got %q (error: %v); want replayed, with no second effect", out.Result, err)
	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 4, Receipts: 1}),
		"after the replay: want one effect of 4 units, one receipt, and the mark advanced to 2")
}

// TestChangedPayloadConflictsAndChangesNothing: a call that reuses OP-1's
// id with different units is a conflict. Its transaction rolls back whole:
// no effect, no new receipt, and its higher fence does not become the mark.
func TestChangedPayloadConflictsAndChangesNothing(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})
	before := d.State()

	out := gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 2, Operation: "OP-1", Units: 5})

	assert.Equal(t, out.Result, gate.Conflict,
		"OP-1 again with 5 units after it was applied with 4: got %s; want conflict", out.Result)
	assert.Check(t, cmp.Equal(d.State(), before),
		"a conflicting call changed the destination (mark, units or receipts); want it rolled back whole")
}
