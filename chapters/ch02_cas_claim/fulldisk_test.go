package casclaim

// This file holds what a worker hears when the disk fills in the middle
// of its transaction: SQLite may roll the transaction back by itself, and
// the error the worker gets is the full disk, first and alone.

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestAFullDiskIsReportedAloneAndFirst: a transaction keeps writing after
// its file may no longer grow (PRAGMA max_page_count, which SQLite reports
// exactly as a full disk). SQLite may then have rolled the transaction
// back already, and the ROLLBACK that follows finds none. Immediate
// returns the full disk, first and alone: not joined with that ROLLBACK's
// failure, which would bury the cause under a line about no transaction.
// Nothing of the transaction is left in the table.
func TestAFullDiskIsReportedAloneAndFirst(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "full.db"))
	assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE t (v TEXT)`)
		return err
	}), "set-up: the table")

	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		var pages int
		if err := tx.QueryRow(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `PRAGMA max_page_count = `+strconv.Itoa(pages)); err != nil {
			return err
		}
		for range 1000 {
			if _, err := tx.Exec(ctx, `INSERT INTO t VALUES (?)`, strings.Repeat("x", 4096)); err != nil {
				return err
			}
		}
		return nil
	})

	var e *sqlite.Error
	assert.Assert(t, errors.As(err, &e), "a transaction on a full disk returned %v; want SQLite's error", err)
	assert.Equal(t, e.Code()&0xff, sqlite3.SQLITE_FULL, "a transaction on a full disk returned %v; want SQLITE_FULL", err)
	assert.Assert(t, !errors.Is(err, sqlitedb.ErrRollbackFailed), "a transaction on a full disk returned %v; want the full disk alone, not a failed rollback after it", err)
	assert.Equal(t, err.Error(), e.Error(), "a transaction on a full disk returned %q; want the full disk's own words, first and alone", err)
	var n int
	assert.NilError(t, db.QueryRow(ctx, `SELECT COUNT(*) FROM t`).Scan(&n))
	assert.Equal(t, n, 0, "rows left by a transaction the full disk ended")
}
