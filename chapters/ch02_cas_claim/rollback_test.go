package casclaim

// This file holds what a worker hears when a write fails and takes its
// transaction with it (a full disk, an I/O error: SQLite ends the whole
// transaction then, not only the statement). The ROLLBACK the worker's
// transaction relies on then fails too, since there is nothing left to
// roll back. Two things went wrong, and the worker must hear both, the
// write's failure first: it is why the claim did not happen.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestFailedRollbackNeverHidesTheFailedWrite: worker-a's claim of msg-1,
// and worker-a's completion of msg-2, each meet an UPDATE that fails and
// ends its transaction, so the ROLLBACK after it fails as well. Each call
// returns an error that is not a refusal and not a win, in which the
// write's own failure (SQLite's constraint error, raised by the damage)
// comes first and sqlitedb.ErrRollbackFailed is there too. The ledger is
// as it was, the counter included; and once repaired the same worker's
// next call on the same connection goes through.
func TestFailedRollbackNeverHidesTheFailedWrite(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, id string
		call     func(t *testing.T, box *mailbox.Mailbox, held mailbox.Claim) error
	}{{
		name: "claim", id: "msg-1",
		call: func(t *testing.T, box *mailbox.Mailbox, _ mailbox.Claim) error {
			_, err := box.Claim(t.Context(), "msg-1", "worker-a")
			return err
		},
	}, {
		name: "completion", id: "msg-2",
		call: func(t *testing.T, box *mailbox.Mailbox, held mailbox.Claim) error {
			return box.Complete(t.Context(), "msg-2", "worker-a", held.Token)
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			l.Add("msg-1", "Restock vanilla")
			l.Add("msg-2", "Order cones")
			box := l.Mailbox(mailbox.NoLease)
			held := mailboxtest.Claim(t, box, "msg-2", "worker-a")
			before, minted := l.Row(tc.id), l.Minted()
			repair := l.EndTransactions("UPDATE", "messages")

			err := tc.call(t, box, held)

			repair()
			mailboxtest.Failed(t, err, "worker-a's "+tc.name+" of "+tc.id+" whose UPDATE ended its transaction")
			var first *sqlite.Error
			assert.Check(t, errors.As(err, &first) && first.Code()&0xff == sqlite3.SQLITE_CONSTRAINT,
				"the first SQLite error in what worker-a's %s returned = %v; want the failed UPDATE's own (a constraint error), not the ROLLBACK's", tc.name, err)
			assert.Check(t, errors.Is(err, sqlitedb.ErrRollbackFailed),
				"worker-a's %s whose ROLLBACK failed = %v; want the failed rollback reported too", tc.name, err)
			assert.Check(t, cmp.Equal(l.Row(tc.id), before), "%s after the failed %s: want it exactly as before", tc.id, tc.name)
			assert.Check(t, cmp.Equal(l.Minted(), minted), "tokens minted by the failed %s: want none", tc.name)
			assert.NilError(t, tc.call(t, box, held), "worker-a's %s of %s again, once the ledger was repaired", tc.name, tc.id)
		})
	}
}
