package incarnation

// This file gives each test a fresh ledger and kiosks on it: each kiosk is
// a host with its own connection, and all of them read one logical clock
// unless a test hands a kiosk a clock of its own.

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

var ctx = context.Background()

// leases: a session lease lasts 15 minutes, a host lease 10.
var leases = session.Leases{Session: 15, Host: 10}

// ledger is one test's database file and the clock its kiosks share.
type ledger struct {
	tb    testing.TB
	path  string
	clock *clock.Logical
	read  *session.Store // for the test's own committed reads
}

func newLedger(tb testing.TB) *ledger {
	tb.Helper()
	l := &ledger{tb: tb, path: filepath.Join(tb.TempDir(), "sessions.db"), clock: new(clock.Logical)}
	db := l.connect()
	if err := session.CreateSchema(ctx, db); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	l.read = session.Open(db, l.clock, leases)
	return l
}

func (l *ledger) connect() *sqlitedb.DB {
	l.tb.Helper()
	return sqlitedbtest.Open(l.tb, l.path)
}

// kiosk is one host on its own connection.
type kiosk struct {
	tb    testing.TB
	name  string
	store *session.Store
}

// kiosk returns host name on a new connection, reading the ledger's clock.
func (l *ledger) kiosk(name string) *kiosk {
	l.tb.Helper()
	return l.kioskWithClock(name, l.clock)
}

// kioskWithClock returns host name on a new connection, reading clk.
func (l *ledger) kioskWithClock(name string, clk clock.Clock) *kiosk {
	l.tb.Helper()
	return &kiosk{tb: l.tb, name: name, store: session.Open(l.connect(), clk, leases)}
}

// at moves the shared clock to minute.
func (l *ledger) at(minute int64) { l.clock.Set(minute) }

// claim renews the kiosk's host lease and claims id, failing the test
// unless both succeed.
func (k *kiosk) claim(id string) session.Claim {
	k.tb.Helper()
	k.alive()
	c, err := k.store.Claim(ctx, id, k.name)
	if err != nil {
		k.tb.Fatalf("%s claims %s: %v; want a win", k.name, id, err)
	}
	return c
}

// alive renews the kiosk's host lease.
func (k *kiosk) alive() {
	k.tb.Helper()
	if _, err := k.store.RenewHost(ctx, k.name); err != nil {
		k.tb.Fatalf("%s renews its host lease: %v", k.name, err)
	}
}

// committed is what finish reports when the completion was written: not a
// refusal reason, but it reads as one in a failure message.
const committed session.Reason = "committed"

// finish presents c and returns the refusal reason, or committed.
func (k *kiosk) finish(c session.Claim) session.Reason {
	k.tb.Helper()
	err := k.store.FinishSession(ctx, c, "order from "+k.name)
	if err == nil {
		return committed
	}
	r, ok := session.ReasonOf(err)
	if !ok {
		k.tb.Fatalf("%s finishes %s (incarnation %d): unexpected error (not a refusal): %v", k.name, c.Session, c.Incarnation, err)
	}
	return r
}

// generation is one committed completion: who finished, and which run.
type generation struct {
	Host        string
	Incarnation int64
}

func (g generation) String() string { return fmt.Sprintf("%s/incarnation %d", g.Host, g.Incarnation) }

// completions lists the runs of id that committed a completion.
func (l *ledger) completions(id string) []generation {
	l.tb.Helper()
	done, err := l.read.Completions(ctx, id)
	if err != nil {
		l.tb.Fatalf("read completions: %v", err)
	}
	out := []generation{}
	for _, c := range done {
		out = append(out, generation{c.Host, c.Incarnation})
	}
	return out
}
