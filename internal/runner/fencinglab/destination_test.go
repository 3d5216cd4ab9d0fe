package fencinglab

import (
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestAnAnswerWhoseLogLineFailsStandsWithAWarning: the destination
// answers a conflicting retry, then cannot write its line in the arrivals
// log (here a trigger refuses it). The answer stands and is reported as
// it is, and the runner says, in one warning line, that the line is
// missing; the call is not an error, nor retried.
func TestAnAnswerWhoseLogLineFailsStandsWithAWarning(t *testing.T) {
	db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), destinationFile))
	assert.NilError(t, err)
	defer db.Close()
	assert.NilError(t, gate.CreateSchema(t.Context(), db))
	g := gate.Open(db, gate.FenceReceipt)
	first := gate.Request{Fence: 2, Operation: operation, Units: 4}
	_, err = g.Apply(t.Context(), first)
	assert.NilError(t, err)
	assert.NilError(t, db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(t.Context(), `CREATE TRIGGER no_lines BEFORE INSERT ON arrivals BEGIN SELECT RAISE(FAIL, 'the log is full'); END`)
		return err
	}))

	var warn strings.Builder
	changed := first
	changed.Units++
	out, err := callDestination(t.Context(), g, changed, workerB, &warn)
	assert.NilError(t, err, "a call whose answer stands, with only its log line missing")
	assert.Check(t, cmp.Equal(out.Result, gate.Conflict))
	line := warn.String()
	assert.Check(t, strings.HasPrefix(line, "fencelab fencing: warning: worker B's destination call was answered conflict, but ") &&
		strings.Contains(line, gate.ErrNotLogged.Error()) && strings.Count(line, "\n") == 1 && strings.HasSuffix(line, "\n"),
		"an answer whose log line is missing is reported with one warning line naming the worker, the answer and why; got %q", line)
}
