package casclaim

// This file holds the other half of a failed rollback: besides the
// write's failure, the worker hears the ROLLBACK's own, SQLite's answer to
// it, not only the word that a rollback failed.

import (
	"testing"

	"gotest.tools/v3/assert"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// sqliteCodes lists the primary result code of every SQLite error in
// err's tree, in depth-first order.
func sqliteCodes(err error) []int {
	var codes []int
	if e, ok := err.(*sqlite.Error); ok {
		codes = append(codes, e.Code()&0xff)
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			codes = append(codes, sqliteCodes(inner)...)
		}
	case interface{ Unwrap() error }:
		codes = append(codes, sqliteCodes(u.Unwrap())...)
	}
	return codes
}

// TestFailedRollbackKeepsItsOwnReason: worker-a's claim of msg-1 meets an
// UPDATE that ends its transaction, so its ROLLBACK fails too. What the
// claim returns holds both of SQLite's answers: the UPDATE's constraint
// error, and the ROLLBACK's own error (there was no transaction left to
// roll back), not the write's error twice.
func TestFailedRollbackKeepsItsOwnReason(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	repair := l.EndTransactions("UPDATE", "messages")

	_, err := box.Claim(t.Context(), "msg-1", "worker-a")

	repair()
	mailboxtest.Failed(t, err, "worker-a's claim of msg-1 whose UPDATE ended its transaction")
	codes := sqliteCodes(err)
	assert.Assert(t, len(codes) == 2, "SQLite errors in what worker-a's claim returned: codes %v in %v; want the UPDATE's and the ROLLBACK's", codes, err)
	assert.Equal(t, codes[0], sqlite3.SQLITE_CONSTRAINT, "the first SQLite error: the UPDATE's; in %v", err)
	assert.Equal(t, codes[1], sqlite3.SQLITE_ERROR, "the second SQLite error: the ROLLBACK's own (no transaction is active); in %v", err)
}
