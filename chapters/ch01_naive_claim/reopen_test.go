package naiveclaim

// This file holds what a killed worker leaves behind. A process killed
// with kill -9 closes nothing: its last claims may live only in the
// ledger's write-ahead log (the -wal file beside it), not yet folded into
// the file itself. Whoever opens the ledger next must find them there.

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestReopenedLedgerKeepsEveryCommitOfAKilledWorker: worker-a commits
// claims of msg-1 and msg-2 and is killed before it closes anything. The
// files it leaves, the ledger and its write-ahead log copied as they are
// at that moment, are opened by the next worker (SQLite rebuilds the log's
// -shm index from the log itself). Both claims are there,
// owner and token, and the next claim's token is greater: a claim
// committed only to the log is as committed as any.
func TestReopenedLedgerKeepsEveryCommitOfAKilledWorker(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	l.Add("msg-2", "Order cones")
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(mailbox.NoLease)
	won := map[string]mailbox.Claim{
		"msg-1": mailboxtest.Claim(t, box, "msg-1", "worker-a"),
		"msg-2": mailboxtest.Claim(t, box, "msg-2", "worker-a"),
	}
	left := filepath.Join(t.TempDir(), "ledger.db")
	for _, suffix := range []string{"", "-wal"} {
		copyFile(t, l.Path+suffix, left+suffix)
	}
	_, err := os.Stat(l.Path + "-wal")
	assert.Assert(t, err == nil, "set-up: worker-a's claims left no write-ahead log to find them in (%v)", err)

	next := mailbox.Open(sqlitedbtest.Open(t, left), new(clock.Logical), mailbox.NoLease)

	for id, c := range won {
		msg, err := next.Get(t.Context(), id)
		assert.Check(t, err, "%s in the ledger worker-a left: want it still there", id)
		assert.Check(t, msg.Owner == "worker-a" && msg.Token == c.Token,
			"%s in the ledger worker-a left: owner %q, token %d; want worker-a's committed claim, token %d", id, msg.Owner, msg.Token, c.Token)
	}
	c, err := next.Claim(t.Context(), "msg-3", "worker-b")
	assert.NilError(t, err, "worker-b's claim of msg-3 in the ledger worker-a left")
	assert.Check(t, c.Token > won["msg-2"].Token, "worker-b's token %d in the ledger worker-a left; want greater than worker-a's %d", c.Token, won["msg-2"].Token)
}

// copyFile copies the file at from to to, as it is now.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	assert.NilError(t, err)
	defer in.Close()
	out, err := os.Create(to)
	assert.NilError(t, err)
	_, err = io.Copy(out, in)
	assert.NilError(t, err)
	assert.NilError(t, out.Close())
}
