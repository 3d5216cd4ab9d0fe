// Package tokentest reads the shared token counter for tests: how far it
// has counted, so a test can tell whether a refusal or a failure burned a
// token.
package tokentest

import (
	"testing"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Minted returns the highest token the lease_tokens counter in db has
// handed out, or 0 if none, as committed. It fails tb if the counter
// cannot be read.
func Minted(tb testing.TB, db *sqlitedb.DB) int64 {
	tb.Helper()
	var n int64
	err := db.QueryRow(tb.Context(), `SELECT COALESCE(MAX(token), 0) FROM lease_tokens`).Scan(&n)
	if err != nil {
		tb.Fatalf("read lease_tokens: %v", err)
	}
	return n
}
