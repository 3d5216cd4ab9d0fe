package rollback

// This test pins every answer the gate gives next to what it commits: the
// destination's whole committed state and its whole arrivals log, read
// back through a connection no gate writes on.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestEveryAnswerCommitsWhatItSays: one call under each answer, after A's
// OP-1 (fence 1, 4 units) or others before it. Applied commits its effect,
// its receipt (under fence+receipt) and its fence as the mark; fenced
// commits nothing of the call; replayed commits only its higher mark;
// conflict and rolled_back commit nothing at all. Whatever the answer, the
// call leaves exactly one line in the arrivals log.
func TestEveryAnswerCommitsWhatItSays(t *testing.T) {
	t.Parallel()
	a := gate.Request{Fence: 1, Operation: "OP-1", Units: 4}
	for _, tc := range []struct {
		name     string
		contract gate.Contract
		before   []gate.Request // the calls that committed before this one
		req      gate.Request
		want     gate.Result
		state    gate.State // the committed state afterwards, whole
	}{
		{"applied", gate.FenceReceipt, []gate.Request{a}, gate.Request{Fence: 2, Operation: "OP-2", Units: 3},
			gate.Applied, gate.State{HighestFence: 2, Units: 7, Receipts: 2}},
		{"fenced", gate.FenceReceipt, []gate.Request{a, {Fence: 3, Operation: "OP-1", Units: 4}}, gate.Request{Fence: 2, Operation: "OP-2", Units: 3},
			gate.Fenced, gate.State{HighestFence: 3, Units: 4, Receipts: 1}},
		{"replayed", gate.FenceReceipt, []gate.Request{a}, gate.Request{Fence: 2, Operation: "OP-1", Units: 4},
			gate.Replayed, gate.State{HighestFence: 2, Units: 4, Receipts: 1}},
		{"conflict", gate.FenceReceipt, []gate.Request{a}, gate.Request{Fence: 2, Operation: "OP-1", Units: 5},
			gate.Conflict, gate.State{HighestFence: 1, Units: 4, Receipts: 1}},
		{"rolled-back", gate.FenceReceipt, []gate.Request{a}, gate.Request{Fence: 2, Operation: "OP-2", Units: 3, FailAfterEffect: true},
			gate.RolledBack, gate.State{HighestFence: 1, Units: 4, Receipts: 1}},
		{"applied-under-fence", gate.Fence, []gate.Request{a}, gate.Request{Fence: 2, Operation: "OP-1", Units: 4},
			gate.Applied, gate.State{HighestFence: 2, Units: 8}},
		{"fenced-under-fence", gate.Fence, []gate.Request{{Fence: 3, Operation: "OP-1", Units: 4}}, gate.Request{Fence: 2, Operation: "OP-2", Units: 3},
			gate.Fenced, gate.State{HighestFence: 3, Units: 4}},
		{"applied-under-none", gate.None, []gate.Request{{Fence: 3, Operation: "OP-1", Units: 4}}, gate.Request{Fence: 2, Operation: "OP-1", Units: 4},
			gate.Applied, gate.State{Units: 8}},
		{"rolled-back-under-none", gate.None, []gate.Request{a}, gate.Request{Fence: 2, Operation: "OP-2", Units: 3, FailAfterEffect: true},
			gate.RolledBack, gate.State{Units: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := gatetest.New(t)
			for _, req := range tc.before {
				gatetest.Apply(t, d.Gate(tc.contract), req)
			}
			log := d.Arrivals()

			out := gatetest.Apply(t, d.Gate(tc.contract), tc.req)

			assert.Check(t, cmp.Equal(out.Result, tc.want), "fence %d, %s with %d units under %s, after %d calls",
				tc.req.Fence, tc.req.Operation, tc.req.Units, tc.contract, len(tc.before))
			assert.Check(t, cmp.Equal(d.State(), tc.state),
				"committed destination after a call answered %s: want exactly what that answer commits", out.Result)
			log = append(log, gate.Arrival{Fence: tc.req.Fence, Operation: tc.req.Operation, Units: tc.req.Units, Result: tc.want})
			assert.Check(t, cmp.DeepEqual(d.Arrivals(), log),
				"arrivals log after a call answered %s: want the earlier lines and exactly one line for this call", out.Result)
		})
	}
}
