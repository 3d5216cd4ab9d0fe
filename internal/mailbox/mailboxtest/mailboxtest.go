// Package mailboxtest gives chapter tests a fresh mailbox on a real SQLite
// file under t.TempDir(), with a logical clock they move by hand.
package mailboxtest

import (
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
	"github.com/fencelab/fencelab/internal/token/tokentest"
)

// Ledger is one test's database file.
type Ledger struct {
	TB    testing.TB
	Path  string
	Clock *clock.Logical // shared by every mailbox Open returns
	first *sqlitedb.DB
}

// New creates an empty ledger with the mailbox schema in a fresh temporary
// directory. Its connections close when the test ends.
func New(tb testing.TB) *Ledger {
	tb.Helper()
	l := &Ledger{TB: tb, Path: filepath.Join(tb.TempDir(), "ledger.db"), Clock: new(clock.Logical)}
	l.first = l.Connect()
	if err := mailbox.CreateSchema(tb.Context(), l.first); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	return l
}

// Connect opens another, separate connection pool to the ledger: what a
// second worker process would have.
func (l *Ledger) Connect() *sqlitedb.DB {
	l.TB.Helper()
	return sqlitedbtest.Open(l.TB, l.Path)
}

// Mailbox returns a mailbox on a new connection to the ledger, judged by
// the ledger's clock, with claims lasting lease (or mailbox.NoLease).
func (l *Ledger) Mailbox(lease int64) *mailbox.Mailbox {
	l.TB.Helper()
	return mailbox.Open(l.Connect(), l.Clock, lease)
}

// Add stores a NEW message.
func (l *Ledger) Add(id, body string) {
	l.TB.Helper()
	if err := mailbox.Open(l.first, l.Clock, mailbox.NoLease).Add(l.TB.Context(), id, body); err != nil {
		l.TB.Fatalf("add %s: %v", id, err)
	}
}

// Get returns a message's committed state.
func (l *Ledger) Get(id string) mailbox.Message {
	l.TB.Helper()
	msg, err := mailbox.Open(l.first, l.Clock, mailbox.NoLease).Get(l.TB.Context(), id)
	if err != nil {
		l.TB.Fatalf("get %s: %v", id, err)
	}
	return msg
}

// Minted returns how many fencing tokens the shared counter has issued.
func (l *Ledger) Minted() int64 {
	l.TB.Helper()
	return tokentest.Minted(l.TB, l.first)
}

// Claim claims id for owner and fails the test unless it wins.
func Claim(tb testing.TB, box *mailbox.Mailbox, id, owner string) mailbox.Claim {
	tb.Helper()
	c, err := box.Claim(tb.Context(), id, owner)
	if err != nil {
		tb.Fatalf("Claim(%s, %s) = %v; want a win", id, owner, err)
	}
	return c
}

// Accepted is what Reason returns for a request that was not refused, so a
// failure message reads "accepted != stale_token" rather than showing an
// empty string.
const Accepted mailbox.Reason = "accepted"

// Reason returns the refusal reason of err, or Accepted for nil, failing
// the test if err is anything else.
func Reason(tb testing.TB, err error) mailbox.Reason {
	tb.Helper()
	if err == nil {
		return Accepted
	}
	r, ok := mailbox.ReasonOf(err)
	if !ok {
		tb.Fatalf("unexpected error (not a refusal): %v", err)
	}
	return r
}

// Failed checks that err reports a failure of the ledger itself: an
// error, and not a refusal a worker would take as the ledger's answer.
// what names the call in the failure message.
func Failed(tb testing.TB, err error, what string) {
	tb.Helper()
	if err == nil {
		tb.Fatalf("%s succeeded on a ledger that cannot take it; want an error", what)
	}
	if r, refused := mailbox.ReasonOf(err); refused {
		tb.Errorf("%s was refused (%s) on a ledger that cannot take it; want an error, not a refusal", what, r)
	}
}
