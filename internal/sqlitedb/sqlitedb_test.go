package sqlitedb_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// newTable returns a database with one empty table t(v).
func newTable(t *testing.T) *sqlitedb.DB {
	t.Helper()
	return newTableAt(t, filepath.Join(t.TempDir(), "t.db"))
}

// newTableAt is newTable at path.
func newTableAt(t *testing.T, path string) *sqlitedb.DB {
	ctx := t.Context()
	t.Helper()
	db := sqlitedbtest.Open(t, path)
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
	assert.Equal(t, len(sqlitedb.Prepared(db)), 0, "connections kept after a failed ROLLBACK: want it closed, not kept")
}

// insert runs one transaction on db that inserts v into t.
func insert(ctx context.Context, db *sqlitedb.DB, v int) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO t VALUES (?)`, v)
		return err
	})
}

// TestStatementsArePreparedOncePerConnection: transactions one after
// another reuse one kept connection, and each statement they run (BEGIN
// IMMEDIATE, the INSERT, COMMIT) is prepared on it once, not once per call.
func TestStatementsArePreparedOncePerConnection(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)
	assert.NilError(t, insert(ctx, db, 1))
	first := sqlitedb.Prepared(db)
	assert.Equal(t, len(first), 1, "connections kept after one transaction at a time")

	for v := 2; v <= 4; v++ {
		assert.NilError(t, insert(ctx, db, v))
	}

	assert.Assert(t, cmp.DeepEqual(sqlitedb.Prepared(db), first),
		"statements prepared on the kept connection after three more identical transactions: want none prepared again")
	assert.Equal(t, sqlitedb.OpenConnections(db), 1,
		"open connections after four transactions one after another: want the one kept connection reused")
	assert.Equal(t, rows(t, db), 4, "rows after four committed inserts")
}

// TestCloseClosesEveryConnection: Close closes the kept connections too,
// not only those database/sql pools for reads, and closes them for real:
// SQLite removes the WAL file only when the last connection to the file
// has closed, statements and all.
func TestCloseClosesEveryConnection(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sqlitedb.Open(ctx, path)
	assert.NilError(t, err)
	assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE t (v INTEGER)`)
		return err
	}))
	rows(t, db) // a read, on a pooled connection
	assert.Equal(t, len(sqlitedb.Prepared(db)), 1, "connections kept after a transaction")

	assert.NilError(t, db.Close())

	assert.Equal(t, sqlitedb.OpenConnections(db), 0, "connections still open after Close")
	_, err = os.Stat(path + "-wal")
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "%s-wal after Close (stat: %v): a connection is still open", path, err)
}

// TestFailedPrepareIsAnError: SQL that cannot be prepared comes back as
// the driver's error from every way of running it, never a panic, and the
// connection stays usable.
func TestFailedPrepareIsAnError(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)
	const bad = `SELECT v FROM no_such_table`
	isSQLiteError := func(err error) bool {
		var e *sqlite.Error
		return errors.As(err, &e)
	}

	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, bad)
		return err
	})
	assert.Assert(t, isSQLiteError(err), "Tx.Exec(%q) = %v; want SQLite's error", bad, err)

	err = db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		var v int
		return tx.QueryRow(ctx, bad).Scan(&v)
	})
	assert.Assert(t, isSQLiteError(err), "Tx.QueryRow(%q).Scan = %v; want SQLite's error", bad, err)

	var v int
	err = db.QueryRow(ctx, bad).Scan(&v)
	assert.Assert(t, isSQLiteError(err), "DB.QueryRow(%q).Scan = %v; want SQLite's error", bad, err)
	_, err = db.Query(ctx, bad)
	assert.Assert(t, isSQLiteError(err), "DB.Query(%q) = %v; want SQLite's error", bad, err)

	assert.NilError(t, insert(ctx, db, 1), "a transaction after the failed prepares")
	assert.Equal(t, rows(t, db), 1, "rows after a transaction that followed the failed prepares")
}

// TestCancelledContextLeavesNoTransactionOpen: a context cancelled before
// BEGIN IMMEDIATE, or before COMMIT, makes Immediate report the
// cancellation and leave no transaction open: the same DB and another
// connection to the file can both write afterwards.
func TestCancelledContextLeavesNoTransactionOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		run  func(db *sqlitedb.DB) error
	}{
		{"BeforeBegin", func(db *sqlitedb.DB) error {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			return insert(ctx, db, 1)
		}},
		{"BeforeCommit", func(db *sqlitedb.DB) error {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
				_, err := tx.Exec(ctx, `INSERT INTO t VALUES (1)`)
				cancel()
				return err
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			path := filepath.Join(t.TempDir(), "t.db")
			db := newTableAt(t, path) // leaves one kept connection for the cancelled call to take

			err := tc.run(db)

			assert.ErrorIs(t, err, context.Canceled, "Immediate under a cancelled context: want the cancellation reported")
			assert.Equal(t, rows(t, db), 0, "rows after a transaction whose context was cancelled: nothing may commit")
			assert.NilError(t, insert(ctx, db, 2), "the same DB after the cancelled transaction: a connection went back with a transaction open")
			other := sqlitedbtest.Open(t, path)
			assert.NilError(t, insert(ctx, other, 3), "another connection after the cancelled transaction: the write lock was not released")
		})
	}
}

// TestFailedCommitLeavesNoTransactionOpen: a deferred foreign key that is
// still broken at COMMIT makes the COMMIT fail, and SQLite then keeps the
// transaction open. Immediate reports the failure, rolls the transaction
// back, and keeps no connection with a transaction open.
func TestFailedCommitLeavesNoTransactionOpen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "t.db")
	db := sqlitedbtest.Open(t, path)
	assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TABLE parent (id INTEGER PRIMARY KEY)`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)`)
		return err
	}))
	orphan := func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO child VALUES (1)`)
		return err
	}

	err := db.Immediate(ctx, orphan)

	var e *sqlite.Error
	assert.Assert(t, errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT,
		"Immediate whose COMMIT broke a deferred foreign key = %v; want SQLite's constraint error", err)
	var n int
	assert.NilError(t, db.QueryRow(ctx, `SELECT COUNT(*) FROM child`).Scan(&n))
	assert.Equal(t, n, 0, "child rows after a COMMIT that failed")
	assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO parent VALUES (1)`)
		return err
	}), "the same DB after the failed COMMIT: a connection went back with a transaction open")
	other := sqlitedbtest.Open(t, path)
	assert.NilError(t, other.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO child VALUES (1)`)
		return err
	}), "another connection after the failed COMMIT: the write lock was not released")
}

// TestImmediateHoldsTheWriteLockFromBegin: BEGIN IMMEDIATE takes the write
// lock before fn reads anything, so no other connection can commit between
// fn's read and fn's write. Here another connection tries to write in that
// gap and gives up when its context ends, and fn's write, made from what it
// read, commits. (Under a plain BEGIN the other writer gets in, and fn's
// write then fails with SQLITE_BUSY: its snapshot is out of date.)
func TestImmediateHoldsTheWriteLockFromBegin(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "t.db")
	db := newTableAt(t, path)
	other := sqlitedbtest.Open(t, path)
	var otherErr error

	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil {
			return err
		}
		// The bound only ends the other writer's wait; nothing is timed.
		gap, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancel()
		otherErr = insert(gap, other, 100)
		_, err := tx.Exec(ctx, `INSERT INTO t VALUES (?)`, n+1)
		return err
	})

	assert.Assert(t, errors.Is(otherErr, context.DeadlineExceeded) || sqlitedb.IsBusy(otherErr),
		"another connection's write between a BEGIN IMMEDIATE transaction's read and its write = %v; want it kept out until it gave up", otherErr)
	assert.NilError(t, err, "a BEGIN IMMEDIATE transaction that read, then wrote what it read: want it committed")
	assert.Equal(t, rows(t, db), 1, "rows after the transaction: only its own write")
}
