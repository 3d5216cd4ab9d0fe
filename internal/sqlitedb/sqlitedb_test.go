package sqlitedb_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// newTable returns a database with one empty table t(v).
func newTable(t *testing.T) *sqlitedb.DB {
	ctx := t.Context()
	t.Helper()
	db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "t.db"))
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE t (v INTEGER)`)
		return err
	})
	assert.NilError(t, err)
	return db
}

func rows(t *testing.T, db *sqlitedb.DB) int {
	t.Helper()
	var n int
	assert.NilError(t, db.QueryRow(t.Context(), `SELECT COUNT(*) FROM t`).Scan(&n))
	return n
}

// TestImmediateCommitsOnNil: what fn wrote is committed when it returns nil.
func TestImmediateCommitsOnNil(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO t VALUES (1)`)
		return err
	})
	assert.NilError(t, err)
	assert.Equal(t, rows(t, db), 1, "rows after a transaction that returned nil")
}

// TestImmediateRollsBackAndReturnsFnError: a refusal rolls everything the
// transaction wrote back, and the caller gets fn's own error to switch on.
func TestImmediateRollsBackAndReturnsFnError(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)
	refused := errors.New("refused")
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO t VALUES (1)`); err != nil {
			return err
		}
		return refused
	})
	assert.ErrorIs(t, err, refused, "Immediate after fn returned an error: want fn's error")
	assert.Equal(t, rows(t, db), 0, "rows after a transaction that returned an error: its write must roll back")
}

// TestImmediateRollsBackOnPanic: a panic inside the transaction rolls it
// back, and the database stays usable.
func TestImmediateRollsBackOnPanic(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)
	func() {
		defer func() { _ = recover() }()
		_ = db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO t VALUES (1)`); err != nil {
				return err
			}
			panic("boom")
		})
	}()
	assert.Equal(t, rows(t, db), 0, "rows after a transaction that panicked")
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO t VALUES (2)`)
		return err
	})
	assert.NilError(t, err, "a transaction after the panic: the write lock must have been released")
}

// TestOpenEscapesThePath: a directory name with '?' and '#' (legal in a
// TMPDIR) still opens exactly that file, not a truncated name.
func TestOpenEscapesThePath(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "we?ird#dir")
	assert.NilError(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, "ledger.db")

	db := sqlitedbtest.Open(t, path)
	assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE t (v INTEGER)`)
		return err
	}))

	_, err := os.Stat(path)
	assert.NilError(t, err, "the database must be at the path given")
}

// TestOpenHonoursItsContext: Open makes its first connection under the
// caller's context, so a cancelled caller gets the cancellation back and
// no file is created behind its back.
func TestOpenHonoursItsContext(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ledger.db")
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()

	db, err := sqlitedb.Open(cancelled, path)
	if err == nil {
		db.Close()
	}

	assert.ErrorIs(t, err, context.Canceled, "Open with a cancelled context")
	_, statErr := os.Stat(path)
	assert.Check(t, cmp.ErrorIs(statErr, os.ErrNotExist), "Open with a cancelled context created %s anyway (stat: %v)", path, statErr)
}

// TestImmediateReportsAFailedRollback: a trigger that raises ROLLBACK ends
// the whole transaction from inside fn's statement, so the ROLLBACK
// Immediate runs for fn's error finds no transaction and fails. The caller
// gets both: fn's error, and ErrRollbackFailed saying the rollback it
// relied on did not happen as decided.
func TestImmediateReportsAFailedRollback(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)
	assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TRIGGER t_ends_transaction BEFORE INSERT ON t
			BEGIN SELECT RAISE(ROLLBACK, 'this trigger ends the transaction'); END`)
		return err
	}))
	refused := errors.New("refused")

	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO t VALUES (1)`); err != nil {
			return fmt.Errorf("%w: %w", refused, err)
		}
		return nil
	})

	assert.ErrorIs(t, err, refused, "Immediate after fn failed and its ROLLBACK failed too: want fn's error still there")
	assert.ErrorIs(t, err, sqlitedb.ErrRollbackFailed, "Immediate after fn failed and its ROLLBACK failed too: want the failed rollback reported")
	assert.Equal(t, rows(t, db), 0, "rows after a transaction its own trigger rolled back")
}
