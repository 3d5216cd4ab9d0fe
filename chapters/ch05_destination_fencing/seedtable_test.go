package destinationfencing

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencinglab"
	"github.com/fencelab/fencelab/internal/queue"
)

// anyMark stands for "any highest fence" in the seed table.
const anyMark = -1

// TestSeedTable runs the six receiving cases with real worker processes
// at every --units value, 1 to 9, and checks each against the seed table:
// the attempts in arrival order, the final destination, and the queue
// outcome every case shares.
func TestSeedTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		attempts string
		// final units and receipts, as multiples of N; the final mark
		finalUnitsTimesN, receipts, mark int64
	}{
		{"finish-only", "B applied, A applied", 2, 0, anyMark},
		{"fence-new-first", "B applied, A fenced", 1, 0, 2},
		{"fence-old-first", "A applied, B applied", 2, 0, 2},
		{"same-fence-repeat", "B applied, B applied, A fenced", 2, 0, 2},
		{"fence-and-receipt", "A applied, B replayed, B replayed", 1, 1, 2},
		{"changed-operation", "B applied, B conflict, A fenced", 1, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for n := int64(1); n <= 9; n++ {
				rep, err := fencinglab.RunCase(ctx, t.TempDir(), tc.name, n)
				assert.NilError(t, err, "fencing --case %s --units %d", tc.name, n)

				assert.Check(t, cmp.Equal(arrivals(rep), tc.attempts), "--units %d: attempts in arrival order", n)
				final := rep.DestinationFinal
				assert.Check(t, cmp.Equal(final.Units, tc.finalUnitsTimesN*n), "--units %d: final units", n)
				assert.Check(t, cmp.Equal(final.Receipts, tc.receipts), "--units %d: final receipts", n)
				if tc.mark != anyMark {
					assert.Check(t, cmp.Equal(final.HighestFence, tc.mark), "--units %d: final mark", n)
				}
				checkQueueOutcome(t, rep)
			}
		})
	}
}

// arrivals writes a case's attempts the way the seed table does:
// "B applied, A fenced".
func arrivals(rep fencinglab.CaseReport) string {
	var s []string
	for _, a := range rep.Attempts {
		s = append(s, a.Worker+" "+string(a.Result))
	}
	return strings.Join(s, ", ")
}

// checkQueueOutcome checks what every case shares: A, a separate process,
// exits normally after its finish is refused lease_lost, and B completes
// the job with fence 2 after two claims. The same queue outcome hides very
// different destinations.
func checkQueueOutcome(t *testing.T, rep fencinglab.CaseReport) {
	t.Helper()
	assert.Check(t, rep.CoordinatorPid != rep.OldWorkerPid,
		"A ran in the coordinator's process %d; want a separate process", rep.CoordinatorPid)
	assert.Check(t, cmp.Equal(rep.OldWorkerExit.Code, 0), "A's exit status")
	assert.Check(t, cmp.Equal(rep.OldWorkerFinish.Result, string(queue.LeaseLost)),
		"A's finish with its old fence at tick %d", rep.OldWorkerFinish.Tick)
	assert.Check(t, cmp.Equal(rep.QueueFinal, fencinglab.QueueFinal{
		Job: "JOB-1", State: queue.Completed, Worker: "B", Fence: 2, Claims: 2}), "queue at the end")
	for i, a := range rep.Attempts {
		assert.Check(t, cmp.Equal(a.QueueAfterDestination, fencinglab.QueueRow{State: queue.Running, Worker: "B", Fence: 2}),
			"queue right after attempt %d", i)
	}
}
