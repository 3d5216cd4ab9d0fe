package destinationfencing

import (
	"iter"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/chapters/internal/testenv"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/fencinglab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// anyMark stands for "any highest fence" in the seed table.
const anyMark = -1

// defaultUnits is --units when it is not given.
const defaultUnits = 4

// TestSeedTable runs the six receiving cases at every --units value, 1 to
// 9, and checks each against the seed table: the attempts in arrival
// order, the final destination, and the queue outcome every case shares.
// The table is about what the destination decides, so worker A runs in
// this process, with its own connections, at every N but the default; at
// the default N it is a separate OS process, as the runner starts it, and
// the test checks that too.
func TestSeedTable(t *testing.T) {
	testenv.MustHaveWorkerProcesses(t)
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
			for n, rep := range runAtEveryN(t, tc.name) {
				assert.Check(t, cmp.Equal(arrivals(rep), tc.attempts),
					"--units %d: destination calls and their results, in arrival order", n)
				final := rep.DestinationFinal
				assert.Check(t, cmp.Equal(final.Units, tc.finalUnitsTimesN*n),
					"--units %d: units at the destination at the end (%d times N)", n, tc.finalUnitsTimesN)
				assert.Check(t, cmp.Equal(final.Receipts, tc.receipts), "--units %d: receipts at the destination at the end", n)
				if tc.mark != anyMark {
					assert.Check(t, cmp.Equal(final.HighestFence, tc.mark), "--units %d: the destination's committed mark at the end", n)
				}
				checkQueueOutcome(t, rep, n)
				if n == defaultUnits {
					assert.Check(t, rep.CoordinatorPid != rep.OldWorkerPid,
						"--units %d: A ran in the coordinator's process %d; want a process of its own", n, rep.CoordinatorPid)
				}
			}
		})
	}
}

// runAtEveryN runs the case named name at every --units value, 1 to 9, and
// returns the reports in order of N. The nine stories run at once: each
// has its own files and its own worker A, and spends most of its time
// waiting for the disk. Worker A runs in this process except at the
// default N, where it is a separate OS process.
func runAtEveryN(t *testing.T, name string) iter.Seq2[int64, fencinglab.CaseReport] {
	t.Helper()
	reps := make([]fencinglab.CaseReport, 10)
	errs := make([]error, 10)
	var wg sync.WaitGroup
	for n := int64(1); n <= 9; n++ {
		start := worker.StartInProcess
		if n == defaultUnits {
			start = worker.Start
		}
		dir := t.TempDir()
		wg.Go(func() { reps[n], errs[n] = fencinglab.RunCase(t.Context(), dir, name, n, start) })
	}
	wg.Wait()
	for n := 1; n <= 9; n++ {
		assert.NilError(t, errs[n], "fencing --case %s --units %d", name, n)
	}
	return func(yield func(int64, fencinglab.CaseReport) bool) {
		for n := int64(1); n <= 9; n++ {
			if !yield(n, reps[n]) {
				return
			}
		}
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

// checkQueueOutcome checks what every case shares: A exits normally after
// its finish is refused lease_lost, and B, not A, completes the job with
// fence 2 after two claims. The same queue outcome hides very different
// destinations.
func checkQueueOutcome(t *testing.T, rep fencinglab.CaseReport, n int64) {
	t.Helper()
	assert.Check(t, cmp.Equal(rep.OldWorkerExit.Code, 0), "--units %d: A's exit status: want 0, a normal exit", n)
	assert.Check(t, cmp.Equal(rep.OldWorkerFinish, fencinglab.Finish{Tick: 6, Fence: 1, Result: string(queue.LeaseLost)}),
		"--units %d: A's finish with its old fence 1 at tick 6: want it refused lease_lost", n)
	assert.Check(t, cmp.Equal(rep.NewWorkerFinish, fencinglab.Finish{Tick: 6, Fence: 2, Result: "completed"}),
		"--units %d: B's finish with fence 2 at tick 6: want B, the current holder, to complete JOB-1", n)
	assert.Check(t, cmp.Equal(rep.QueueFinal, fencinglab.QueueFinal{
		Job: "JOB-1", State: queue.Completed, Worker: "B", Fence: 2, Claims: 2}),
		"--units %d: queue row at the end: want JOB-1 completed, B, fence 2, after two claims", n)
	for i, a := range rep.Attempts {
		assert.Check(t, cmp.Equal(a.QueueAfterDestination, fencinglab.QueueRow{State: queue.Running, Worker: "B", Fence: 2}),
			"--units %d: queue row right after destination call %d: want B still running JOB-1 with fence 2", n, i)
	}
}
