package destinationfencing

// This file repeats a destination call with the very fence and request
// that were already applied: the worker's retry of a call whose answer it
// never got. Under the fence contract an equal fence applies again (see
// TestEqualTokensDoNotDeduplicate); the receipt is what makes the repeat
// harmless.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestRepeatWithTheSameFenceIsReplayedWithoutASecondEffect: under
// fence+receipt, B applies OP-1 with 4 units under fence 2, then sends
// the very same request again. The fence equals the mark, so it is
// admitted; the receipt matches, so the repeat is replayed: still one
// effect of 4 units, one receipt, mark 2, and the arrivals log shows the
// call applied once and replayed once.
func TestRepeatWithTheSameFenceIsReplayedWithoutASecondEffect(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	b := d.Gate(gate.FenceReceipt)
	req := gate.Request{Fence: 2, Operation: "OP-1", Units: 4}
	first := gatetest.Apply(t, b, req)
	assert.Assert(t, cmp.Equal(first.Result, gate.Applied), "set-up: B's first call of OP-1 under fence 2")

	out := gatetest.Apply(t, b, req)

	assert.Check(t, cmp.Equal(out.Result, gate.Replayed),
		"B's repeat of OP-1 with 4 units under the same fence 2: want replayed, the receipt recognises the operation")
	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 4, Receipts: 1}),
		"after B's repeat: want one effect of 4 units, one receipt, mark 2")
	assert.Check(t, cmp.DeepEqual(d.Arrivals(), []gate.Arrival{
		{Fence: 2, Operation: "OP-1", Units: 4, Result: gate.Applied},
		{Fence: 2, Operation: "OP-1", Units: 4, Result: gate.Replayed},
	}), "arrivals log after B's call and its repeat: want applied, then replayed")
}
