// Package sqlitedbtest opens SQLite files for tests: one call that fails
// the test on error and closes the connection when the test ends.
package sqlitedbtest

import (
	"testing"

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
