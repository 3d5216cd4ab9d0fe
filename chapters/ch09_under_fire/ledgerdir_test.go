package underfire

// This file holds what the three replays share on the real side: a
// directory of fresh SQLite files, the connection pools opened on them,
// and the logical clock every call reads.

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// ledgerDir is one run's files and pools. close gives them all back at
// once: a shrink replays hundreds of runs in one test, and each must
// release its files before the next begins.
type ledgerDir struct {
	ctx    context.Context
	tb     testing.TB
	dir    string
	clock  *clock.Logical
	opened []*sqlitedb.DB
}

func newLedgerDir(tb testing.TB) ledgerDir {
	return ledgerDir{ctx: tb.Context(), tb: tb, dir: tb.TempDir(), clock: new(clock.Logical)}
}

// open opens one more connection pool on the file name in the run's
// directory, as another process would.
func (d *ledgerDir) open(name string) *sqlitedb.DB {
	d.tb.Helper()
	db, err := sqlitedb.Open(d.ctx, filepath.Join(d.dir, name))
	if err != nil {
		d.tb.Fatalf("open %s: %v", name, err)
	}
	d.opened = append(d.opened, db)
	return db
}

func (d *ledgerDir) close() {
	for _, db := range d.opened {
		db.Close()
	}
	os.RemoveAll(d.dir)
}
