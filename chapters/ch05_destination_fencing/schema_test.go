package destinationfencing

import (
	"context"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestSchemaThatCannotBeCreatedIsAnError: a file that already holds an
// index named like one of the queue's or the destination's tables cannot
// hold that table. CreateSchema says so with an error; it never reports a
// queue ready without its jobs, its claim history or its fence counter, or
// a destination without its resource, receipts or arrivals log.
func TestSchemaThatCannotBeCreatedIsAnError(t *testing.T) {
	t.Parallel()
	queueSchema := func(ctx context.Context, db *sqlitedb.DB) error { return queue.CreateSchema(ctx, db) }
	gateSchema := func(ctx context.Context, db *sqlitedb.DB) error { return gate.CreateSchema(ctx, db) }
	for _, tc := range []struct {
		name   string
		table  string
		create func(context.Context, *sqlitedb.DB) error
	}{
		{"queue-lease-tokens", "lease_tokens", queueSchema},
		{"queue-jobs", "jobs", queueSchema},
		{"queue-claims", "claims", queueSchema},
		{"destination-resource", "resource", gateSchema},
		{"destination-receipts", "receipts", gateSchema},
		{"destination-arrivals", "arrivals", gateSchema},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "file.db"))
			occupyName(t, db, tc.table)

			err := tc.create(t.Context(), db)

			assert.Check(t, err != nil, "CreateSchema on a file with an index named %s = no error; want an error, there is no %s table", tc.table, tc.table)
		})
	}
}

// occupyName gives name to an index of an unrelated table, so no table can
// be created under that name.
func occupyName(t *testing.T, db *sqlitedb.DB, name string) {
	t.Helper()
	ctx := t.Context()
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TABLE unrelated (x)`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `CREATE INDEX `+name+` ON unrelated (x)`)
		return err
	})
	if err != nil {
		t.Fatalf("set-up: an index named %s: %v", name, err)
	}
}
