package historylab

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestMain lets this test binary be the history workers it starts.
func TestMain(m *testing.M) {
	if worker.Entered() {
		os.Exit(worker.Main(context.Background(), []worker.Role{workerRole}, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestPausesArePlannedFromTheSeed: one pause per hundred calls of the
// run, at least one, each after one of its slot's calls but the last,
// each two or three leases long, in the order they come; one seed, one
// plan; with one call per slot there is no call to pause during, with
// two the second.
func TestPausesArePlannedFromTheSeed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		processes, ops, want int
	}{{4, 100, 4}, {2, 10, 1}, {16, 250, 40}, {2, 99, 1}, {4, 2, 1}, {3, 1, 0}} {
		plan := planPauses(7, tc.processes, tc.ops)
		assert.Check(t, cmp.Len(plan, tc.want), "%d processes x %d calls: pauses planned", tc.processes, tc.ops)
		assert.Check(t, slices.Equal(plan, planPauses(7, tc.processes, tc.ops)), "one seed, one plan")
		for i, p := range plan {
			assert.Check(t, p.slot >= 0 && p.slot < tc.processes, "pause %d: slot %d of %d", i, p.slot, tc.processes)
			assert.Check(t, p.After >= 1 && p.After < tc.ops, "pause %d comes after call %d; want one of 1 to %d", i, p.After, tc.ops-1)
			assert.Check(t, p.Ms == 2*leaseMs || p.Ms == 3*leaseMs, "pause %d lasts %d ms; want two or three leases of %d ms", i, p.Ms, leaseMs)
			assert.Check(t, i == 0 || plan[i-1].After <= p.After, "pause %d comes before pause %d", i, i-1)
		}
	}
	lengths := map[int64]bool{}
	for _, p := range planPauses(7, 16, 250) {
		lengths[p.Ms] = true
	}
	assert.Check(t, cmp.Len(lengths, 2), "forty pauses, and not both lengths among them")
	after := map[int]bool{}
	for _, p := range planPauses(7, 1000, 3) {
		after[p.After] = true
	}
	assert.Check(t, cmp.DeepEqual(after, map[int]bool{1: true, 2: true}), "thirty pauses in slots of three calls: after which calls")
}

// TestAPausedCallCarriesTheTimeItReadBeforeThePause: a run of real
// worker processes stops each planned worker during a call, after it
// read its clock and before it called: the call's answer comes at
// least the pause after the call began, with the time it read then,
// which is a lease or more out of date. The run counts the pauses, and
// the shipped mailbox's history stays linearizable.
func TestAPausedCallCarriesTheTimeItReadBeforeThePause(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a Unix to pause a worker (SIGSTOP, SIGCONT)")
	}
	t.Parallel()
	dir := t.TempDir()
	f := &flags{mechanism: "mailbox", check: checkLinearizable, processes: 2, ops: 100, seed: 5, start: worker.Start}

	got, err := run(t.Context(), cli.Env{Dir: dir, Stderr: os.Stderr}, f)

	assert.NilError(t, err)
	res := got.(result)
	assert.Check(t, cmp.Equal(res.Pauses, 2), "pauses made: one per hundred calls")
	assert.Check(t, cmp.Equal(res.Linearizable, any(true)), "the shipped mailbox's history, pauses and all")
	ops, err := history.Merge(filepath.Join(dir, "ops-*.jsonl"))
	assert.NilError(t, err)
	// Seed 5 kills slot 0 only, so slot 1's calls are all made by its
	// first process, number 2, and its call after n calls is the n+1st.
	assert.Assert(t, slices.Equal(planKills(5, 2, 100), []kill{{slot: 0, after: 9}}), "seed 5's kills")
	for _, p := range planPauses(5, 2, 100) {
		assert.Assert(t, cmp.Equal(p.slot, 1))
		i := slices.IndexFunc(ops, func(op history.Op) bool { return op.Process == 2 && op.Seq == p.After+1 })
		assert.Assert(t, i >= 0, "slot 1's call after %d calls is in the history", p.After)
		op, pause := ops[i], time.Duration(p.Ms)*time.Millisecond
		assert.Assert(t, op.Return != 0, "the paused call was answered")
		lasted := time.Duration(op.Return - op.Call)
		stale := time.Duration(op.Return/int64(time.Millisecond)-op.Now) * time.Millisecond
		assert.Check(t, lasted >= pause, "%s %s (call %d) lasted %v; want at least its pause, %v", op.Kind, op.Key, op.Seq, lasted, pause)
		assert.Check(t, stale >= pause, "%s %s (call %d) was answered %v after the time it read; want at least its pause, %v",
			op.Kind, op.Key, op.Seq, stale, pause)
	}
}
