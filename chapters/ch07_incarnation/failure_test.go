package incarnation

// When the ledger itself fails: a write that fails, a row that cannot be
// read, a read that stops half-way. None of them is an answer.

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestFailedWriteIsAnErrorAndChangesNothing: when the ledger cannot take a
// write (a full disk, a damaged table), the claim, renewal, takeover,
// finish or host renewal that needed it reports an error, never a win, a
// refusal or a finish, and the session is exactly as it was. A finish
// whose release fails commits no completion either: the two are one
// transaction.
func TestFailedWriteIsAnErrorAndChangesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// stmt and table name the writes that fail once the ledger breaks.
		stmt, table string
		// claimed: kiosk-a claimed sess-1 at minute 0 before the ledger broke.
		claimed bool
		// write is the write that must fail, made at minute at; what names
		// it in a failure message.
		at    int64
		write func(t *testing.T, l *sessiontest.Ledger, c session.Claim) error
		what  string
	}{{
		name: "first_claim", stmt: "INSERT", table: "sessions",
		at: 0, what: "kiosk-a's first claim of sess-1",
		write: func(t *testing.T, l *sessiontest.Ledger, _ session.Claim) error {
			_, err := l.Kiosk("kiosk-a").Store.Claim(t.Context(), "sess-1", "kiosk-a")
			return err
		},
	}, {
		name: "renewal", stmt: "UPDATE", table: "sessions", claimed: true,
		at: 5, what: "kiosk-a's renewal of sess-1 at minute 5",
		write: func(t *testing.T, l *sessiontest.Ledger, _ session.Claim) error {
			_, err := l.Kiosk("kiosk-a").Store.Claim(t.Context(), "sess-1", "kiosk-a")
			return err
		},
	}, {
		name: "takeover", stmt: "UPDATE", table: "sessions", claimed: true,
		at: 20, what: "kiosk-b's takeover of sess-1 at minute 20",
		write: func(t *testing.T, l *sessiontest.Ledger, _ session.Claim) error {
			_, err := l.Kiosk("kiosk-b").Store.Claim(t.Context(), "sess-1", "kiosk-b")
			return err
		},
	}, {
		name: "finish", stmt: "INSERT", table: "session_completions", claimed: true,
		at: 5, what: "kiosk-a's finish of sess-1 at minute 5",
		write: func(t *testing.T, l *sessiontest.Ledger, c session.Claim) error {
			return l.Kiosk("kiosk-a").Store.FinishSession(t.Context(), c, "order for table 4")
		},
	}, {
		name: "finish_release", stmt: "UPDATE", table: "sessions", claimed: true,
		at: 5, what: "kiosk-a's finish of sess-1 at minute 5, whose release fails",
		write: func(t *testing.T, l *sessiontest.Ledger, c session.Claim) error {
			return l.Kiosk("kiosk-a").Store.FinishSession(t.Context(), c, "order for table 4")
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := sessiontest.New(t, leases)
			l.Clock.Set(0)
			var c session.Claim
			if tc.claimed {
				c = l.Kiosk("kiosk-a").Claim("sess-1")
			}
			l.Clock.Set(tc.at)
			before := l.State("sess-1")
			l.BreakWrites(tc.stmt, tc.table)
			sessiontest.Failed(t, tc.write(t, l, c), tc.what)
			after := l.State("sess-1")
			assert.Check(t, cmp.DeepEqual(after, before),
				"%s failed, yet sess-1 changed", tc.what)
		})
	}
	t.Run("host_renewal", func(t *testing.T) {
		t.Parallel()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		l.Clock.Set(0)
		c, _ := a.TryClaim("sess-1")
		l.BreakWrites("INSERT", "hosts")
		_, err := a.Store.RenewHost(t.Context(), a.Name)
		sessiontest.Failed(t, err, "kiosk-a's host lease renewal")
		assert.Check(t, cmp.Equal(a.Finish(c), session.HostLeaseExpired),
			"kiosk-a's finish after its host lease renewal failed: a renewal that failed must not make the host alive")
	})
	t.Run("schema", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "shop.db"))
		// The file already uses the name the sessions table needs.
		err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
			if _, err := tx.Exec(ctx, `CREATE TABLE menu (item TEXT)`); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `CREATE INDEX sessions ON menu(item)`)
			return err
		})
		assert.NilError(t, err, "prepare a shop database whose index is named sessions")
		sessiontest.Failed(t, session.CreateSchema(ctx, db), "creating the session schema where its sessions table cannot be made")
		var tables int
		assert.NilError(t, db.QueryRow(ctx, `SELECT count(*) FROM sqlite_master WHERE name IN ('hosts', 'session_completions')`).Scan(&tables))
		assert.Check(t, cmp.Equal(tables, 0),
			"the session schema that failed left %d of its tables behind; want none: it is made whole or not at all", tables)
	})
}

// TestUnreadableLedgerIsAnErrorNotAnAnswer: a row the store cannot read,
// or a read whose context was cancelled, is reported as an error. It is
// never read as "no such session", as a session, as an empty or zeroed
// history, or as a refusal reason: a caller acts on those (drops the
// callback, claims afresh), and must not act on a guess.
func TestUnreadableLedgerIsAnErrorNotAnAnswer(t *testing.T) {
	t.Parallel()
	// finished returns a ledger on which kiosk-a claimed sess-1 at minute 0
	// and finished it at minute 5.
	finished := func(t *testing.T) (*sessiontest.Ledger, *sessiontest.Kiosk) {
		t.Helper()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		l.Clock.Set(0)
		c := a.Claim("sess-1")
		l.Clock.Set(5)
		if r := a.Finish(c); r != sessiontest.Committed {
			t.Fatalf("kiosk-a's finish at minute 5 was refused: %s", r)
		}
		return l, a
	}
	cancelled := func(t *testing.T) context.Context {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		return ctx
	}
	t.Run("session_row", func(t *testing.T) {
		t.Parallel()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		a.Claim("sess-1")
		l.GarbleSession("sess-1")
		got, err := a.Store.Get(t.Context(), "sess-1")
		assert.Assert(t, err != nil, "Get(sess-1) of a row it cannot read = %+v; want an error", got)
		assert.Check(t, !errors.Is(err, session.ErrNotFound),
			"Get(sess-1) of a row it cannot read = %v; want a read error, not \"no such session\"", err)
	})
	t.Run("session_cancelled", func(t *testing.T) {
		t.Parallel()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		a.Claim("sess-1")
		_, err := a.Store.Get(cancelled(t), "sess-1")
		assert.Check(t, errors.Is(err, context.Canceled),
			"Get(sess-1) under a cancelled context = %v; want the cancellation, not an answer", err)
	})
	t.Run("completions_rows", func(t *testing.T) {
		t.Parallel()
		l, a := finished(t)
		l.GarbleCompletions("sess-1")
		got, err := a.Store.Completions(t.Context(), "sess-1")
		assert.Check(t, err != nil,
			"Completions(sess-1) of a completion it cannot read = %+v; want an error, not a history", got)
	})
	t.Run("completions_cancelled", func(t *testing.T) {
		t.Parallel()
		_, a := finished(t)
		got, err := a.Store.Completions(cancelled(t), "sess-1")
		assert.Check(t, errors.Is(err, context.Canceled),
			"Completions(sess-1) under a cancelled context = %+v, %v; want the cancellation, not a history", got, err)
	})
	t.Run("finish_session_row", func(t *testing.T) {
		t.Parallel()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		c := a.Claim("sess-1")
		l.GarbleSession("sess-1")
		err := a.Store.FinishSession(t.Context(), c, "order for table 4")
		sessiontest.Failed(t, err, "kiosk-a's finish of a session whose row cannot be read")
		assert.Check(t, cmp.DeepEqual(l.Completions("sess-1"), []sessiontest.Generation{}),
			"kiosk-a's finish of a session whose row cannot be read committed a completion")
	})
	t.Run("finish_host_row", func(t *testing.T) {
		t.Parallel()
		l := sessiontest.New(t, leases)
		a := l.Kiosk("kiosk-a")
		l.Clock.Set(0)
		old := a.Claim("sess-1")
		l.Clock.Set(20)
		l.Kiosk("kiosk-b").Claim("sess-1") // kiosk-a's run is stale: the finish is refused
		l.GarbleHost("kiosk-a")            // and the host lease that would name the reason cannot be read
		err := a.Store.FinishSession(t.Context(), old, "order for table 4")
		sessiontest.Failed(t, err, "kiosk-a's stale finish, whose host lease cannot be read")
		assert.Check(t, cmp.DeepEqual(l.Completions("sess-1"), []sessiontest.Generation{}),
			"kiosk-a's stale finish committed a completion")
	})
}

// TestFailedReadLetsGoOfTheLedger: a read of the completions that fails
// half-way still closes what it opened. A read left open keeps its old
// snapshot of the ledger, and SQLite cannot copy what was written after
// that snapshot from its write-ahead log back into the database file: the
// log only grows.
func TestFailedReadLetsGoOfTheLedger(t *testing.T) {
	t.Parallel()
	l := sessiontest.New(t, leases)
	a := l.Kiosk("kiosk-a")
	l.Clock.Set(0)
	if r := a.Finish(a.Claim("sess-1")); r != sessiontest.Committed {
		t.Fatalf("kiosk-a's finish at minute 0 was refused: %s", r)
	}
	l.GarbleCompletions("sess-1")
	_, err := a.Store.Completions(t.Context(), "sess-1")
	assert.Assert(t, err != nil, "Completions(sess-1) read a completion it cannot read")

	a.Claim("sess-2") // a write after the failed read
	logged, copied := l.Checkpoint()
	assert.Check(t, cmp.Equal(copied, logged),
		"a checkpoint after a failed read copied %d of %d log frames back: the failed read still holds a snapshot open", copied, logged)
}
