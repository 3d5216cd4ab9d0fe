package lockservice

// These tests are about the store's file over time: set up again while
// it is in use, and read when part of it is damaged.

import (
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/fencedstore/fencedstoretest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestSettingUpAgainKeepsEveryMarkAndTheLog: creating the store's tables
// again on a file in use, as a restarted process does, keeps every key's
// mark, its writes and its completion, and every line of the log; a
// stale holder is still refused afterwards.
func TestSettingUpAgainKeepsEveryMarkAndTheLog(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "msg-1", "msg-2")
	s := d.Store(fencedstore.Fence)
	assert.NilError(t, s.Write(t.Context(), "msg-1", 7, "A"))
	assert.NilError(t, s.Complete(t.Context(), "msg-1", 7, "A"))
	assert.NilError(t, s.Write(t.Context(), "msg-2", 9, "B"))
	keys := []string{"msg-1", "msg-2"}
	var before []fencedstore.Resource
	for _, key := range keys {
		before = append(before, d.Get(key))
	}
	log := d.Accepted()

	assert.NilError(t, fencedstore.CreateSchema(t.Context(), d.Connect()), "setting the store up again while it is in use")

	again := fencedstore.Open(d.Connect(), fencedstore.Fence)
	for i, key := range keys {
		want := before[i]
		got, err := again.Get(t.Context(), key)
		assert.Check(t, err, "%s after the store was set up again: want it kept", key)
		assert.Check(t, cmp.Equal(got, want), "%s after the store was set up again: want its mark, writes and completion exactly as before", key)
	}
	assert.Check(t, cmp.DeepEqual(d.Accepted(), log), "the log after the store was set up again: want every line kept")
	reason, _ := fencedstore.ReasonOf(again.Write(t.Context(), "msg-2", 8, "A"))
	assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken), "a write with token 8 on msg-2, marked at 9, after the store was set up again: want refused stale_token")
}

// TestFailedReadOfTheLogLetsGoOfTheFile: a read of the log that stops at
// a damaged line must still close its statement. One left open keeps a
// read transaction on an old snapshot, and the write-ahead log cannot be
// copied back past it: every later commit piles up in the -wal file for
// as long as the reader's connection lives.
func TestFailedReadOfTheLogLetsGoOfTheFile(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	writer := d.Store(fencedstore.Fence)
	for token := range int64(3) {
		assert.NilError(t, writer.Write(t.Context(), "report", token+1, "A"))
	}
	fix := d.Connect()
	sqlitedbtest.Exec(t, fix, `UPDATE accepted SET token = 'many' WHERE seq = 2`)
	reader := fencedstore.Open(d.Connect(), fencedstore.Fence)
	if _, err := reader.Accepted(t.Context()); err == nil {
		t.Fatalf("set-up: reading a log whose second line is damaged = no error; want an error")
	}
	sqlitedbtest.Exec(t, fix, `UPDATE accepted SET token = 2 WHERE seq = 2`)

	assert.NilError(t, writer.Write(t.Context(), "report", 4, "A"))

	assert.Check(t, cmp.Equal(d.UncheckpointedFrames(), 0),
		"frames a checkpoint could not copy after a failed read of the log and a later commit: want none, no reader left open")
}

// TestStoreSchemaIsCreatedWholeOrNotAtAll: setting the store up on a file
// that already uses the name its log needs (here an index called
// accepted) is an error, and leaves none of the store's tables behind: a
// store with marks but no log would take writes the audit never sees.
func TestStoreSchemaIsCreatedWholeOrNotAtAll(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "shop.db"))
	sqlitedbtest.Exec(t, db, `CREATE TABLE menu (item TEXT)`)
	sqlitedbtest.Exec(t, db, `CREATE INDEX accepted ON menu(item)`)

	err := fencedstore.CreateSchema(ctx, db)

	assert.Check(t, err != nil, "setting the store up on a file whose index is named accepted: want an error, the log cannot be made")
	var tables int
	assert.NilError(t, db.QueryRow(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('resources', 'accepted')`).Scan(&tables))
	assert.Check(t, cmp.Equal(tables, 0), "the store's set-up that failed left %d of its tables behind; want none: it is made whole or not at all", tables)
}
