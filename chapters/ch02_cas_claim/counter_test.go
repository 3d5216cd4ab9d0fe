package casclaim

// This file holds the counter's promise: a number it handed out is never
// handed out again, whatever happens to its table afterwards.

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestTokensAreNeverReusedAfterTheNewestRowIsDeleted: a clean-up job
// deletes the newest row of lease_tokens. The next claim must still get a
// token greater than every token ever issued: a repeated number would make
// a new generation indistinguishable from an old one that a paused worker
// still holds.
func TestTokensAreNeverReusedAfterTheNewestRowIsDeleted(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	l.Add("msg-2", "Order cones")
	box := l.Mailbox(mailbox.NoLease)
	mailboxtest.Claim(t, box, "msg-1", "worker-a")
	newest := mailboxtest.Claim(t, box, "msg-2", "worker-b").Token
	err := l.Connect().Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(t.Context(), `DELETE FROM lease_tokens WHERE token = ?`, newest)
		return err
	})
	assert.NilError(t, err, "set-up: delete the newest row of lease_tokens")

	l.Add("msg-3", "Call the supplier")
	next := mailboxtest.Claim(t, box, "msg-3", "worker-a").Token

	assert.Assert(t, next > newest, "a claim after token %d's row was deleted got token %d; want greater: a token must never be minted twice", newest, next)
}
