package casclaim

// These tests break the ledger on purpose, with a trigger that aborts a
// write or a row that cannot be read, and pin what a worker hears when
// the ledger fails: an error, never a claim it won, a completion, or a
// refusal it would act on, and nothing changed.

import (
	"errors"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestFailedWriteIsAnErrorAndChangesNothing: when the ledger cannot take a
// write (a full disk, a damaged table), the claim that needed a token or
// the row, or the completion, reports an error. A claim that failed to
// mint is not a win with no token, and one whose UPDATE failed is not a
// lost race: msg-1 and the token counter read back exactly as before.
func TestFailedWriteIsAnErrorAndChangesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// stmt and table name the writes that fail once the ledger breaks.
		stmt, table string
		// claimed: worker-a claimed msg-1 before the ledger broke.
		claimed bool
		what    string
		write   func(t *testing.T, box *mailbox.Mailbox, c mailbox.Claim) error
	}{{
		name: "claim_mint", stmt: "INSERT", table: "lease_tokens",
		what: "worker-a's claim of msg-1, whose token cannot be minted",
		write: func(t *testing.T, box *mailbox.Mailbox, _ mailbox.Claim) error {
			_, err := box.Claim(t.Context(), "msg-1", "worker-a")
			return err
		},
	}, {
		name: "claim_update", stmt: "UPDATE", table: "messages",
		what: "worker-a's claim of msg-1, whose row cannot be written",
		write: func(t *testing.T, box *mailbox.Mailbox, _ mailbox.Claim) error {
			_, err := box.Claim(t.Context(), "msg-1", "worker-a")
			return err
		},
	}, {
		name: "complete_update", stmt: "UPDATE", table: "messages", claimed: true,
		what: "worker-a's completion of msg-1, whose row cannot be written",
		write: func(t *testing.T, box *mailbox.Mailbox, c mailbox.Claim) error {
			return box.Complete(t.Context(), "msg-1", "worker-a", c.Token)
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			l.Add("msg-1", "Restock vanilla")
			box := l.Mailbox(mailbox.NoLease)
			var c mailbox.Claim
			if tc.claimed {
				c = mailboxtest.Claim(t, box, "msg-1", "worker-a")
			}
			before, minted := l.Row("msg-1"), l.Minted()
			l.BreakWrites(tc.stmt, tc.table)

			mailboxtest.Failed(t, tc.write(t, box, c), tc.what)

			assert.Check(t, cmp.Equal(l.Row("msg-1"), before), "msg-1 after %s: want it exactly as before", tc.what)
			assert.Check(t, cmp.Equal(l.Minted(), minted), "tokens minted by %s: want none", tc.what)
		})
	}
}

// TestUnreadableMessageIsAnErrorNotAnAnswer: a message row the mailbox
// cannot read (a damaged page, a hand edit) is reported as an error. It is
// never "no such message", never a message, and never the reason a claim
// or a completion was refused: a worker acts on a refusal (it drops its
// work, or waits for the holder), and must not act on a guess.
func TestUnreadableMessageIsAnErrorNotAnAnswer(t *testing.T) {
	t.Parallel()
	t.Run("get", func(t *testing.T) {
		t.Parallel()
		l := mailboxtest.New(t)
		l.Add("msg-1", "Restock vanilla")
		l.Garble("msg-1")
		got, err := l.Mailbox(mailbox.NoLease).Get(t.Context(), "msg-1")
		assert.Assert(t, err != nil, "Get(msg-1) of a row it cannot read = %+v; want an error", got)
		assert.Check(t, !errors.Is(err, mailbox.ErrNotFound),
			"Get(msg-1) of a row it cannot read = %v; want a read error, not \"no such message\"", err)
	})
	for _, tc := range []struct {
		name, what string
		// refused is a request the mailbox refuses, and must read msg-1
		// to explain; worker-a holds msg-1 under c.
		refused func(t *testing.T, box *mailbox.Mailbox, c mailbox.Claim) error
	}{{
		name: "refused_claim", what: "worker-b's claim of msg-1, held by worker-a",
		refused: func(t *testing.T, box *mailbox.Mailbox, _ mailbox.Claim) error {
			_, err := box.Claim(t.Context(), "msg-1", "worker-b")
			return err
		},
	}, {
		name: "refused_completion", what: "worker-a's completion of msg-1 with a token it was never issued",
		refused: func(t *testing.T, box *mailbox.Mailbox, c mailbox.Claim) error {
			return box.Complete(t.Context(), "msg-1", "worker-a", c.Token+98)
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			l.Add("msg-1", "Restock vanilla")
			box := l.Mailbox(mailbox.NoLease)
			c := mailboxtest.Claim(t, box, "msg-1", "worker-a")
			l.Garble("msg-1")
			before, minted := l.Row("msg-1"), l.Minted()

			mailboxtest.Failed(t, tc.refused(t, box, c), tc.what+", whose row cannot be read")

			assert.Check(t, cmp.Equal(l.Row("msg-1"), before), "msg-1 after %s: want it exactly as before", tc.what)
			assert.Check(t, cmp.Equal(l.Minted(), minted), "tokens minted by %s: want none", tc.what)
		})
	}
}

// TestMailboxSchemaIsCreatedWholeOrNotAtAll: in a file that already uses
// the name of one of the mailbox's tables (pointed, by mistake, at another
// program's database), CreateSchema reports an error and leaves neither
// table behind: the messages table never exists without the counter that
// fences it, nor the counter alone.
func TestMailboxSchemaIsCreatedWholeOrNotAtAll(t *testing.T) {
	t.Parallel()
	for _, taken := range []string{"lease_tokens", "messages"} {
		t.Run(taken, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "shop.db"))
			err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
				if _, err := tx.Exec(ctx, `CREATE TABLE menu (item TEXT)`); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `CREATE INDEX `+taken+` ON menu(item)`)
				return err
			})
			assert.NilError(t, err, "prepare a shop database with an index named %s", taken)

			mailboxtest.Failed(t, mailbox.CreateSchema(ctx, db), "creating the mailbox where "+taken+" names an index")

			var tables int
			assert.NilError(t, db.QueryRow(ctx, `SELECT count(*) FROM sqlite_master
				WHERE type = 'table' AND name IN ('lease_tokens', 'messages')`).Scan(&tables))
			assert.Check(t, cmp.Equal(tables, 0),
				"the mailbox schema that failed left %d of its tables behind; want none: it is made whole or not at all", tables)
		})
	}
}
