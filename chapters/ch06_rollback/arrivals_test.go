package rollback

// These tests pin what the arrivals log may never do: turn an answer the
// destination committed into an error, or hide an answer behind one.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestRolledBackCallIsLoggedButCommitsNothing: the arrivals log keeps B's
// rolled-back call, fence 2 answered rolled_back, in a line of its own,
// and writing that line commits nothing of the call: the destination's
// mark, units and receipts stay where they were. The log says what the
// destination received; the mark says what it committed.
func TestRolledBackCallIsLoggedButCommitsNothing(t *testing.T) {
	t.Parallel()
	d, _ := afterRollback(t)

	assert.Check(t, cmp.DeepEqual(d.Arrivals(), []gate.Arrival{{Fence: 2, Operation: "OP-1", Units: 4, Result: gate.RolledBack}}),
		"arrivals log after B's fence-2 call rolled back: want exactly its line, answered rolled_back; the log must keep a call the destination did not commit")
	assert.Check(t, cmp.Equal(d.State(), gate.State{}),
		"committed destination after B's rolled-back call was logged: want the committed mark still 0, no units, no receipt; logging the call must not commit it")
}

// TestRetryAfterApplyErrorAppliesOnce: an error from Apply means nothing
// committed, so a caller may retry even under the fence contract, which
// has no receipts to catch a repeat. B's first call meets a broken arrivals
// log; its line belongs to the call's own transaction, so the effect rolls
// back with it. B's retry, once the log works again, is the only effect.
func TestRetryAfterApplyErrorAppliesOnce(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	b := d.Gate(gate.Fence)
	req := gate.Request{Fence: 2, Operation: "OP-1", Units: 4}
	repair := d.BreakArrivalsLog()
	out, err := b.Apply(t.Context(), req)
	if err == nil {
		t.Fatalf("set-up: B's call with the arrivals log broken = %s and no error; want an error", out.Result)
	}
	repair()

	gatetest.Apply(t, b, req)

	assert.Check(t, cmp.Equal(d.State(), gate.State{HighestFence: 2, Units: 4}),
		"B's first call returned an error and B retried: want one effect of 4 units under mark 2; "+
			"an error after a committed effect makes the retry apply a second time (the error: %v)", err)
}

// TestLogFailureKeepsRolledBackOutcome: B's call fails after its effect and
// rolls back, then its line cannot be written to the arrivals log. B still
// gets its answer, rolled_back, and an error that only says the line is
// missing (gate.ErrNotLogged): nothing was committed and the answer stands,
// so there is nothing to retry because of it.
func TestLogFailureKeepsRolledBackOutcome(t *testing.T) {
	t.Parallel()
	d := gatetest.New(t)
	d.BreakArrivalsLog()

	out, err := d.Gate(gate.FenceReceipt).Apply(t.Context(), failingB)

	assert.Check(t, out.Result == gate.RolledBack,
		"B's failing call with the arrivals log broken: got answer %q; want rolled_back, not lost behind the log's error (%v)", out.Result, err)
	assert.Check(t, cmp.ErrorIs(err, gate.ErrNotLogged),
		"B's failing call with the arrivals log broken: error %v; want gate.ErrNotLogged, which says the answer stands", err)
}
