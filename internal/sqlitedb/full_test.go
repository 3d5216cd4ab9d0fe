package sqlitedb_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestAFullDiskIsReportedAloneAndFirst: when the disk fills during a
// transaction (here the file may not grow past its current size, which
// SQLite reports exactly as a full disk), SQLite may have rolled the
// transaction back already. Immediate then returns the full disk, first
// and alone: not joined with a ROLLBACK that found no transaction, and
// the table holds nothing of the transaction.
func TestAFullDiskIsReportedAloneAndFirst(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := newTable(t)

	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		var pages int
		if err := tx.QueryRow(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `PRAGMA max_page_count = `+strconv.Itoa(pages)); err != nil {
			return err
		}
		for i := 0; i < 1000; i++ {
			if _, err := tx.Exec(ctx, `INSERT INTO t VALUES (?)`, strings.Repeat("x", 4096)); err != nil {
				return err
			}
		}
		return nil
	})

	var e *sqlite.Error
	assert.Assert(t, errors.As(err, &e), "Immediate on a full disk = %v; want SQLite's error", err)
	assert.Equal(t, e.Code()&0xff, sqlite3.SQLITE_FULL, "Immediate on a full disk = %v; want SQLITE_FULL", err)
	assert.Assert(t, !errors.Is(err, sqlitedb.ErrRollbackFailed), "Immediate on a full disk = %v; want the full disk alone, not a failed rollback after it", err)
	assert.Equal(t, err.Error(), e.Error(), "Immediate on a full disk = %q; want the full disk's own words first and alone", err)
	assert.Equal(t, rows(t, db), 0, "rows after a transaction the full disk ended")
}
