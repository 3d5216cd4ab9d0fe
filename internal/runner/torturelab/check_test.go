package torturelab

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/history"
)

// TestACheckHasTheContractsThirtySeconds: the budget of one run's check
// is the 30 s internal/runner/CONTRACT.md gives; a history not decided
// within it says "unknown".
func TestACheckHasTheContractsThirtySeconds(t *testing.T) {
	assert.Equal(t, checkBudget, 30*time.Second)
}

// TestEachProcessOfARunHasAHistoryNumberThatNamesIt: porcupine's page
// draws a row per process number, and the number reads as the slot and
// the start: 10001 is slot 0's first process, 10002 the one that
// replaced it, 30001 slot 2's first. No two processes of a run share
// one, however many kills land on one slot.
func TestEachProcessOfARunHasAHistoryNumberThatNamesIt(t *testing.T) {
	assert.Check(t, cmp.Equal(historyProcess(0, 1), 10001))
	assert.Check(t, cmp.Equal(historyProcess(0, 2), 10002))
	assert.Check(t, cmp.Equal(historyProcess(2, 1), 30001))
	assert.Check(t, cmp.Equal(historyProcess(15, 1001), 161001))
	seen := map[int]bool{}
	for slot := range processesFlag.Max {
		for start := 1; start <= killsFlag.Max+1; start++ {
			n := historyProcess(slot, start)
			assert.Assert(t, !seen[n], "slot %d start %d shares number %d", slot, start, n)
			seen[n] = true
		}
	}
}

// TestAHistoryThatCannotBeReadOrDrawnFailsTheCheck: a history file with a
// line that is no call, or a page that cannot be written, is an error of
// the run, never a verdict.
func TestAHistoryThatCannotBeReadOrDrawnFailsTheCheck(t *testing.T) {
	t.Parallel()
	spec := history.Mailbox(40, mailbox.MaxRetries)
	dir := t.TempDir()
	good := `{"process":1001,"seq":1,"op":"read","key":"msg-1","call":1,"return":2,"out":{"result":"ok","state":"NEW"}}` + "\n"
	assert.NilError(t, os.WriteFile(filepath.Join(dir, "0-1.jsonl"), []byte(good), 0o644))

	got, err := checkHistory(dir, spec, "")
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(got.Linearizable, any(true)))
	assert.Check(t, cmp.Equal(got.Operations, 1))

	_, err = checkHistory(dir, spec, filepath.Join(dir, "no-such-folder", "h.html"))
	assert.Check(t, cmp.ErrorContains(err, "no-such-folder"), "a page that cannot be written")

	assert.NilError(t, os.WriteFile(filepath.Join(dir, "0-2.jsonl"), []byte(`{"note":"not a call"}`+"\n"), 0o644))
	_, err = checkHistory(dir, spec, "")
	assert.Check(t, cmp.ErrorContains(err, "not an operation"), "a history line that is no call")
}
