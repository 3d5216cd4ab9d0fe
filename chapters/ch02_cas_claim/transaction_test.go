package casclaim

// These tests hold the claim's one transaction to its promise when it is
// cut short: by a worker that gives up (a cancelled context), by a COMMIT
// that fails, or by a ledger closed in the middle. A claim that did not
// commit is an error, never a win and never a refusal; it changes nothing
// and burns no token; and it leaves no transaction open to hold up the
// next claim, on this connection or on any other.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestInterruptedClaimIsAnErrorAndLeavesNoTransactionOpen: worker-a's
// claim of msg-1 is cut short four ways: its context is cancelled before
// it connects, before its transaction begins, or inside the transaction
// once BEGIN IMMEDIATE has taken the write lock; or every statement runs
// and the COMMIT fails. Each time the claim reports the error, nothing
// about a failed rollback (nothing was decided but "roll back"), and
// msg-1 and the token counter are exactly as before. Then the next claim
// on the same connection, and one on another connection, both go through:
// no transaction was left open holding the write lock.
func TestInterruptedClaimIsAnErrorAndLeavesNoTransactionOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// interrupt prepares the way worker-a's claim is cut short. It
		// returns the context to claim under and sets *inside, if the cut
		// comes inside the transaction; repair undoes any damage.
		interrupt func(t *testing.T, l *mailboxtest.Ledger, box *mailbox.Mailbox, inside *func()) (ctx context.Context, repair func())
		// cause is what the error must report, besides not being a win.
		cause func(error) bool
	}{{
		name: "cancelled_before_connecting",
		interrupt: func(t *testing.T, _ *mailboxtest.Ledger, _ *mailbox.Mailbox, _ *func()) (context.Context, func()) {
			return cancelled(t), func() {}
		},
		cause: isCancellation,
	}, {
		name: "cancelled_before_begin",
		interrupt: func(t *testing.T, _ *mailboxtest.Ledger, box *mailbox.Mailbox, _ *func()) (context.Context, func()) {
			// An earlier claim leaves its connection kept for the next one.
			mailboxtest.Claim(t, box, "msg-3", "worker-c")
			return cancelled(t), func() {}
		},
		cause: isCancellation,
	}, {
		name: "cancelled_inside_the_transaction",
		interrupt: func(t *testing.T, _ *mailboxtest.Ledger, _ *mailbox.Mailbox, inside *func()) (context.Context, func()) {
			ctx, cancel := context.WithCancel(t.Context())
			*inside = cancel
			return ctx, cancel
		},
		cause: isCancellation,
	}, {
		name: "commit_fails",
		interrupt: func(t *testing.T, l *mailboxtest.Ledger, _ *mailbox.Mailbox, _ *func()) (context.Context, func()) {
			return t.Context(), l.BreakCommits()
		},
		cause: func(err error) bool { return err != nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			for _, id := range []string{"msg-1", "msg-2", "msg-3"} {
				l.Add(id, "Restock vanilla")
			}
			db := l.Connect()
			var inside func() // what to do inside worker-a's next transaction
			db.PauseAfterBegin(func() {
				if inside != nil {
					inside()
					inside = nil
				}
			})
			box := mailbox.Open(db, l.Clock, mailbox.NoLease)
			ctx, repair := tc.interrupt(t, l, box, &inside)
			before, minted := l.Row("msg-1"), l.Minted()

			won, err := box.Claim(ctx, "msg-1", "worker-a")

			_, refused := mailbox.ReasonOf(err)
			assert.Assert(t, err != nil && !refused,
				"worker-a's claim of msg-1, %s = token %d, %v; want an error: neither a win nor a refusal", tc.name, won.Token, err)
			repair()
			assert.Check(t, tc.cause(err), "worker-a's claim of msg-1, %s = %v; want it to say why", tc.name, err)
			assert.Check(t, !errors.Is(err, sqlitedb.ErrRollbackFailed),
				"worker-a's claim of msg-1, %s = %v; want no failed rollback: the transaction ended as decided", tc.name, err)
			assert.Check(t, cmp.Equal(l.Row("msg-1"), before), "msg-1 after worker-a's claim, %s: want it exactly as before", tc.name)
			assert.Check(t, cmp.Equal(l.Minted(), minted), "tokens minted by worker-a's claim, %s: want none", tc.name)

			_, err = box.Claim(t.Context(), "msg-1", "worker-a")
			assert.Check(t, err, "worker-a's next claim on the same connection, after the claim %s: a transaction was left open", tc.name)
			_, err = l.Mailbox(mailbox.NoLease).Claim(t.Context(), "msg-2", "worker-b")
			assert.Check(t, err, "worker-b's claim on another connection, after worker-a's claim %s: the write lock was not released", tc.name)
		})
	}
}

// cancelled returns a context that has already ended.
func cancelled(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx
}

// isCancellation reports whether err says its context was cancelled.
func isCancellation(err error) bool { return errors.Is(err, context.Canceled) }

// TestLedgerClosedMidClaimLetsGoOfTheFile: a worker that is shutting down
// closes its ledger while one of its claims is inside its transaction. The
// claim still ends whole, committed, and then its connection closes too.
// Once nothing has the file open, SQLite folds its write-ahead log back
// into the file and deletes the -wal file, so the file alone, copied or
// opened by a person, holds every committed claim.
func TestLedgerClosedMidClaimLetsGoOfTheFile(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "ledger.db")
	db, err := sqlitedb.Open(ctx, path)
	assert.NilError(t, err)
	closing := false // close db inside the next transaction
	db.PauseAfterBegin(func() {
		if closing {
			closing = false
			assert.Check(t, db.Close(), "closing the ledger in the middle of a claim")
		}
	})
	assert.NilError(t, mailbox.CreateSchema(ctx, db))
	box := mailbox.Open(db, new(clock.Logical), mailbox.NoLease)
	assert.NilError(t, box.Add(ctx, "msg-1", "Restock vanilla"))

	closing = true
	won, err := box.Claim(ctx, "msg-1", "worker-a")

	assert.Check(t, err, "worker-a's claim of msg-1, whose ledger was closed after the claim's transaction began: want it committed")
	_, err = os.Stat(path + "-wal")
	assert.Check(t, errors.Is(err, os.ErrNotExist),
		"%s-wal after the ledger was closed and its last claim ended (stat: %v): want it gone; a connection to the file is still open", path, err)
	msg, err := mailbox.Open(sqlitedbtest.Open(t, path), new(clock.Logical), mailbox.NoLease).Get(ctx, "msg-1")
	assert.NilError(t, err, "msg-1, read from the file after the worker closed it")
	assert.Check(t, msg.Owner == "worker-a" && msg.Token == won.Token,
		"msg-1 in the file after the worker closed it: owner %q, token %d; want worker-a's claim, token %d", msg.Owner, msg.Token, won.Token)
}
