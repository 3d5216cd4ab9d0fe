package destinationfencing

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestFenceNewFirstRejectsStaleToken: once B's fence 2 has been admitted
// and committed, A's call with fence 1 is fenced and changes nothing. A and
// B use separate connections: the mark lives in the file, not in memory.
func TestFenceNewFirstRejectsStaleToken(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	gatetest.Apply(t, d.Gate(gate.Fence), gate.Request{Fence: 2, Operation: "OP-1", Units: 4})

	out := gatetest.Apply(t, d.Gate(gate.Fence), gate.Request{Fence: 1, Operation: "OP-1", Units: 4})

	assert.Equal(t, out.Result, gate.Fenced,
		"stale fence 1 arrived after the destination committed fence 2: got %s; want fenced", out.Result)
	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 4}),
		"destination after stale fence 1 arrived: want only B's 4 units under mark 2, nothing of A's")
}

// TestEqualTokensDoNotDeduplicate: the gate rejects only fences below its
// mark. B's retry with the same fence 2 is admitted and applies a second
// time: fencing orders owners, it does not recognise a repeated operation.
func TestEqualTokensDoNotDeduplicate(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	b := d.Gate(gate.Fence)
	req := gate.Request{Fence: 2, Operation: "OP-1", Units: 4}
	gatetest.Apply(t, b, req)

	out := gatetest.Apply(t, b, req)

	assert.Equal(t, out.Result, gate.Applied,
		"B's repeat with fence 2 equal to the mark: got %s; want applied (an equal fence is admitted)", out.Result)
	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 8}),
		"equal fences: want both calls applied, 8 units under mark 2")
}
