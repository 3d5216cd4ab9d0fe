package rollback

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencinglab"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
)

// TestRollbackCaseMatchesSeedTable runs fence-rollback with real worker
// processes at every --units value, 1 to 9, and checks the seed table's
// details: B rolled back (its own view mark 2 and N units, committed
// nothing, the queue lease untouched), A applied against mark 0, B's retry
// replayed and committed mark 2.
func TestRollbackCaseMatchesSeedTable(t *testing.T) {
	t.Parallel()
	for n := int64(1); n <= 9; n++ {
		rep, err := fencinglab.RunCase(ctx, t.TempDir(), "fence-rollback", n)
		assert.NilError(t, err, "fencing --case fence-rollback --units %d", n)
		assert.Assert(t, cmp.Len(rep.Attempts, 3), "--units %d: attempts", n)
		b, a, retry := rep.Attempts[0], rep.Attempts[1], rep.Attempts[2]

		assert.Check(t, cmp.Equal(b.Worker+" "+string(b.Result), "B rolled_back"), "--units %d: first attempt", n)
		assert.Check(t, cmp.DeepEqual(b.UncommittedFailureView, &gate.State{HighestFence: 2, Units: n}),
			"--units %d: the failing connection's own view", n)
		assert.Check(t, cmp.Equal(b.After, gate.State{}), "--units %d: committed state after the rollback", n)
		assert.Check(t, cmp.Equal(b.QueueAfterDestination, fencinglab.QueueRow{State: queue.Running, Worker: "B", Fence: 2}),
			"--units %d: queue right after the rollback", n)

		assert.Check(t, cmp.Equal(a.Worker+" "+string(a.Result), "A applied"), "--units %d: second attempt", n)
		assert.Check(t, cmp.Equal(a.Before, gate.State{}), "--units %d: committed state A is judged against", n)
		assert.Check(t, cmp.Equal(a.After, gate.State{HighestFence: 1, Units: n, Receipts: 1}), "--units %d: after A", n)

		assert.Check(t, cmp.Equal(retry.Worker+" "+string(retry.Result), "B replayed"), "--units %d: third attempt", n)
		assert.Check(t, cmp.Equal(retry.After, gate.State{HighestFence: 2, Units: n, Receipts: 1}), "--units %d: after B's retry", n)

		assert.Check(t, cmp.Equal(rep.DestinationFinal, gate.State{HighestFence: 2, Units: n, Receipts: 1}), "--units %d: final", n)
		assert.Check(t, cmp.Equal(rep.OldWorkerFinish.Result, string(queue.LeaseLost)), "--units %d: A's finish", n)
		assert.Check(t, rep.CoordinatorPid != rep.OldWorkerPid, "--units %d: A must run in a process of its own", n)
	}
}
