package rollback

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/chapters/internal/testenv"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/fencinglab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestRollbackCaseMatchesSeedTable runs fence-rollback at every --units
// value, 1 to 9, and checks the seed table's details: B rolled back (its
// own view mark 2 and N units, committed nothing, the queue lease
// untouched), A applied against mark 0, B's retry replayed and committed
// mark 2. The table is about what the destination decides, so worker A
// runs in this process, with its own connections, at every N but the
// default; at the default N it is a separate OS process, as the runner
// starts it, and the test checks that too.
func TestRollbackCaseMatchesSeedTable(t *testing.T) {
	testenv.MustHaveWorkerProcesses(t)
	t.Parallel()
	for n := int64(1); n <= 9; n++ {
		start := worker.StartInProcess
		if n == 4 {
			start = worker.Start
		}
		rep, err := fencinglab.RunCase(t.Context(), t.TempDir(), "fence-rollback", n, start)
		assert.NilError(t, err, "fencing --case fence-rollback --units %d", n)
		assert.Assert(t, cmp.Len(rep.Attempts, 3), "--units %d: destination calls: want B's, A's, B's retry", n)
		b, a, retry := rep.Attempts[0], rep.Attempts[1], rep.Attempts[2]

		assert.Check(t, cmp.Equal(b.Worker+" "+string(b.Result), "B rolled_back"), "--units %d: first destination call", n)
		assert.Check(t, cmp.DeepEqual(b.UncommittedFailureView, &gate.State{HighestFence: 2, Units: n}),
			"--units %d: the failing connection's own view: want its tentative mark 2 and N units, no receipt yet", n)
		assert.Check(t, cmp.Equal(b.After, gate.State{}),
			"--units %d: committed destination after B's rollback: want mark 0, no units, no receipt", n)
		assert.Check(t, cmp.Equal(b.QueueAfterDestination, fencinglab.QueueRow{State: queue.Running, Worker: "B", Fence: 2}),
			"--units %d: queue row right after B's rollback: want B still running JOB-1 with fence 2", n)

		assert.Check(t, cmp.Equal(a.Worker+" "+string(a.Result), "A applied"), "--units %d: second destination call", n)
		assert.Check(t, cmp.Equal(a.Before, gate.State{}), "--units %d: committed destination A is judged against: want mark 0", n)
		assert.Check(t, cmp.Equal(a.After, gate.State{HighestFence: 1, Units: n, Receipts: 1}),
			"--units %d: committed destination after A: want mark 1, A's N units, A's receipt", n)

		assert.Check(t, cmp.Equal(retry.Worker+" "+string(retry.Result), "B replayed"), "--units %d: third destination call", n)
		assert.Check(t, cmp.Equal(retry.After, gate.State{HighestFence: 2, Units: n, Receipts: 1}),
			"--units %d: committed destination after B's retry: want mark 2, still one effect of N units", n)

		assert.Check(t, cmp.Equal(rep.DestinationFinal, gate.State{HighestFence: 2, Units: n, Receipts: 1}),
			"--units %d: destination at the end: want mark 2, one effect of N units, one receipt", n)
		assert.Check(t, cmp.Equal(rep.OldWorkerFinish, fencinglab.Finish{Tick: 6, Fence: 1, Result: string(queue.LeaseLost)}),
			"--units %d: A's finish with its old fence 1 at tick 6: want it refused lease_lost", n)
		assert.Check(t, cmp.Equal(rep.NewWorkerFinish, fencinglab.Finish{Tick: 6, Fence: 2, Result: "completed"}),
			"--units %d: B's finish with fence 2 at tick 6: want B, the current holder, to complete JOB-1", n)
		if n == 4 {
			assert.Check(t, rep.CoordinatorPid != rep.OldWorkerPid,
				"--units %d: A ran in the coordinator's process %d; want a process of its own", n, rep.CoordinatorPid)
		}
	}
}
