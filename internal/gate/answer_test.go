package gate

// This test reaches inside Apply on purpose. No statement Apply runs can
// end its own transaction and still let decide return errRollback (a
// trigger's RAISE(ROLLBACK) fails the statement, and Apply then reports
// that statement's error), so no request makes the ROLLBACK after a
// Conflict or RolledBack fail. The test makes it fail the one way SQLite
// allows: the transaction has already ended when Immediate rolls it back.
// It runs Apply's own decision inside the real Immediate, ends the
// transaction under it, and hands answer exactly what Immediate returned.

import (
	"errors"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestFailedRollbackIsReported: B's failing call decides rolled_back, and
// the ROLLBACK that should undo its transaction fails. Apply must say so
// with an error wrapping sqlitedb.ErrRollbackFailed, not answer
// rolled_back as if the rollback had happened, and must not log the call
// as rolled back.
func TestFailedRollbackIsReported(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "destination.db"))
	assert.NilError(t, CreateSchema(ctx, db))
	g := Open(db, FenceReceipt)
	req := Request{Fence: 2, Operation: "OP-1", Units: 4, FailAfterEffect: true}

	var out Outcome
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		var err error
		out, err = g.decide(ctx, tx, req)
		if _, rbErr := tx.Exec(ctx, "ROLLBACK"); rbErr != nil {
			t.Fatalf("set-up: ending the transaction early: %v", rbErr)
		}
		return err
	})
	if !errors.Is(err, errRollback) || !errors.Is(err, sqlitedb.ErrRollbackFailed) {
		t.Fatalf("set-up: Immediate = %v; want decide's errRollback joined with a failed ROLLBACK", err)
	}

	got, err := g.answer(ctx, req, out, err)

	assert.ErrorIs(t, err, sqlitedb.ErrRollbackFailed,
		"Apply's answer for B's call whose ROLLBACK failed: want the failed rollback reported, not dropped (answer %q)", got.Result)
	assert.Check(t, cmp.Equal(got.Result, Result("")),
		"B's call whose ROLLBACK failed was answered %q; want no answer beside the error", got.Result)
	var lines int
	assert.NilError(t, db.QueryRow(ctx, `SELECT COUNT(*) FROM arrivals`).Scan(&lines))
	assert.Check(t, cmp.Equal(lines, 0), "B's call whose ROLLBACK failed was logged as answered; want no line for it")
}
