package historylab

import (
	"flag"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestKillsArePlannedFromTheSeed: one kill per 200 calls of the run, at
// least one, each after one of its slot's calls but the last; none when
// a slot makes one call, since no call comes after it.
func TestKillsArePlannedFromTheSeed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		processes, ops, want int
	}{{4, 100, 2}, {16, 250, 20}, {2, 199, 1}, {4, 10, 1}, {2, 2, 1}, {3, 1, 0}} {
		plan := planKills(7, tc.processes, tc.ops)
		assert.Check(t, cmp.Len(plan, tc.want), "%d processes x %d calls: kills planned", tc.processes, tc.ops)
	}
	after := map[int]bool{}
	for seed := range int64(200) {
		for _, k := range planKills(seed, 2, 3) {
			assert.Assert(t, k.slot >= 0 && k.slot < 2, "seed %d: a kill in slot %d of 2", seed, k.slot)
			assert.Assert(t, k.after >= 1 && k.after <= 2, "seed %d: a kill after call %d; want 1 or 2 of 3", seed, k.after)
			after[k.after] = true
		}
	}
	assert.Check(t, cmp.DeepEqual(after, map[int]bool{1: true, 2: true}), "the calls kills come after")
}

// TestTheRunsPausesComeOnePerHundredCalls: 198 calls are one pause, not
// two: a pause comes with each full hundred; two calls a slot are
// enough for one. A pause comes after any call of its slot but the
// last, each of them on some seed; seed 5's plan is the one it always
// was (two 20 ms pauses of slot 1, after its 56th and 72nd calls).
func TestTheRunsPausesComeOnePerHundredCalls(t *testing.T) {
	t.Parallel()
	assert.Check(t, cmp.Len(planPauses(7, 2, 99), 1))
	assert.Check(t, cmp.Len(planPauses(7, 2, 2), 1), "two calls a slot")
	after := map[int]bool{}
	for seed := range int64(200) {
		for _, p := range planPauses(seed, 2, 3) {
			assert.Assert(t, p.After >= 1 && p.After <= 2, "seed %d: a pause after call %d; want 1 or 2 of 3", seed, p.After)
			after[p.After] = true
		}
	}
	assert.Check(t, cmp.DeepEqual(after, map[int]bool{1: true, 2: true}), "the calls pauses come after")
	assert.Check(t, slices.Equal(planPauses(5, 2, 100), []pause{{slot: 1, After: 56, Ms: 20}, {slot: 1, After: 72, Ms: 20}}), "seed 5's pauses")
}

// TestACheckHasTheContractsThirtySeconds: a history the checker cannot
// decide in 30 s is "unknown" (internal/runner/CONTRACT.md).
func TestACheckHasTheContractsThirtySeconds(t *testing.T) {
	assert.Equal(t, checkBudget, 30*time.Second)
}

// parsed returns the history command's flags after args, validated.
func parsed(t *testing.T, args ...string) (*flags, error) {
	t.Helper()
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := newFlags(fs)
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	return f, f.Validate()
}

// TestASeedGivenIsKeptAndOneNotGivenIsDrawn: --seed 0 and --seed 5 run
// those seeds; without --seed, whatever else is given, one is drawn; a
// negative seed is misuse.
func TestASeedGivenIsKeptAndOneNotGivenIsDrawn(t *testing.T) {
	t.Parallel()
	for _, seed := range []string{"0", "5"} {
		f, err := parsed(t, "--seed", seed)
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(f.seed, map[string]int{"0": 0, "5": 5}[seed]), "--seed %s", seed)
	}
	drawn := map[int]bool{}
	for range 3 {
		f, err := parsed(t, "--ops", "10")
		assert.NilError(t, err)
		drawn[f.seed] = true
	}
	assert.Check(t, cmp.Len(drawn, 3), "three runs without --seed drew %v", drawn)
	_, err := parsed(t, "--seed", "-1")
	assert.Check(t, cmp.ErrorContains(err, "want a plain decimal integer from 0 to"), "a negative seed")
}

// TestARunHasAKeyForEveryFourCallsBeyondTheHotOnes: the workers move
// along the keys as they see them finished, so the run adds three keys
// and one more for every four calls of the whole run: more than the
// calls can finish, so that no worker runs out of keys.
func TestARunHasAKeyForEveryFourCallsBeyondTheHotOnes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a Unix to start the workers as processes")
	}
	t.Parallel()
	dir := t.TempDir()
	f := &flags{mechanism: "queue", processes: 2, ops: 20, seed: 1, start: worker.Start}

	_, err := run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard}, f)

	assert.NilError(t, err)
	db, err := sqlitedb.Open(t.Context(), filepath.Join(dir, "history.db"))
	assert.NilError(t, err)
	defer db.Close()
	var n, ends int
	assert.NilError(t, db.QueryRow(t.Context(), `SELECT COUNT(*), COUNT(*) FILTER (WHERE id IN ('k-1', 'k-13')) FROM jobs`).Scan(&n, &ends))
	assert.Check(t, cmp.Equal(n, 3+2*20/4), "the run's keys")
	assert.Check(t, cmp.Equal(ends, 2), "the keys are named k-1 to k-13")
}
