// Package sqlitedbtest opens SQLite files for tests: one call that fails
// the test on error and closes the connection when the test ends, and one
// that holds a read open the way a person's sqlite3 shell would.
package sqlitedbtest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Open opens another, separate connection pool to the SQLite file at path
// (what another worker process would have), under tb's context, and closes
// it when tb ends.
func Open(tb testing.TB, path string) *sqlitedb.DB {
	tb.Helper()
	db, err := sqlitedb.Open(tb.Context(), path)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// OpenWaiting is Open for a connection pool whose statements wait only
// wait for another connection's write lock (sqlitedb.OpenWaiting): what a
// worker that gives up on a stuck ledger would have, without the test
// waiting five seconds to see it give up.
func OpenWaiting(tb testing.TB, path string, wait time.Duration) *sqlitedb.DB {
	tb.Helper()
	db, err := sqlitedb.OpenWaiting(tb.Context(), path, wait)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// ErrNoCount is what the statements of a pool OpenCountless opened answer
// when asked how many rows they changed.
var ErrNoCount = errors.New("the driver cannot say how many rows the statement changed")

// OpenCountless is Open for a connection pool whose transactions run
// every statement, but whose results answer ErrNoCount instead of their
// count of changed rows (sqlitedb.DB.FailCounts): what a worker would have
// on a driver that cannot count. A compare-and-set reads its verdict from
// that count, so on this pool every verdict is unknown.
func OpenCountless(tb testing.TB, path string) *sqlitedb.DB {
	tb.Helper()
	db := Open(tb, path)
	db.FailCounts(ErrNoCount)
	return db
}

// HoldRead opens another connection to the file at path, runs query on it
// and leaves the read open, as a person's sqlite3 shell does in the middle
// of a SELECT; the returned function ends the read. query must return at
// least one row: a read ends as soon as its last row has been read.
func HoldRead(tb testing.TB, path, query string) (end func()) {
	tb.Helper()
	rows, err := Open(tb, path).Query(tb.Context(), query)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	if !rows.Next() {
		rows.Close()
		tb.Fatalf("read %s: %s returned no row, so no read stays open (%v)", path, query, rows.Err())
	}
	return func() { rows.Close() }
}

// Exec runs one statement on db in a transaction of its own, as a person
// at a sqlite3 shell would between two steps of a test, and fails the
// test if it fails. The test helpers use it to set a row up or to break
// the ledger on purpose.
func Exec(tb testing.TB, db *sqlitedb.DB, stmt string, args ...any) {
	tb.Helper()
	ctx := tb.Context()
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, stmt, args...)
		return err
	})
	if err != nil {
		tb.Fatalf("exec %s: %v", strings.Join(strings.Fields(stmt), " "), err)
	}
}
