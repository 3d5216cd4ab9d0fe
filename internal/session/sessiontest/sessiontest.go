// Package sessiontest gives chapter tests a fresh session ledger on a real
// SQLite file under t.TempDir(), with a logical clock they move by hand,
// and kiosks on it: hosts with connections of their own, as separate
// processes would have.
package sessiontest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// Ledger is one test's session file.
type Ledger struct {
	TB     testing.TB
	Path   string
	Clock  *clock.Logical // read by every kiosk that was not handed a clock of its own
	Leases session.Leases // how long every store the ledger opens grants leases for
	first  *session.Store // the test's own committed reads
}

// New creates an empty ledger with the session schema in a fresh temporary
// directory; every kiosk on it grants leases as leases says. Its
// connections close when the test ends.
func New(tb testing.TB, leases session.Leases) *Ledger {
	tb.Helper()
	l := &Ledger{TB: tb, Path: filepath.Join(tb.TempDir(), "sessions.db"), Clock: new(clock.Logical), Leases: leases}
	db := l.Connect()
	if err := session.CreateSchema(tb.Context(), db); err != nil {
		tb.Fatalf("create session schema: %v", err)
	}
	l.first = session.Open(db, l.Clock, leases)
	return l
}

// Connect opens another, separate connection pool to the ledger.
func (l *Ledger) Connect() *sqlitedb.DB {
	l.TB.Helper()
	return sqlitedbtest.Open(l.TB, l.Path)
}

// Kiosk returns host name on a new connection, reading the ledger's clock.
func (l *Ledger) Kiosk(name string) *Kiosk {
	l.TB.Helper()
	return l.KioskWithClock(name, l.Clock)
}

// KioskWithClock returns host name on a new connection, reading clk: a
// host whose idea of "now" the test controls apart from the others.
func (l *Ledger) KioskWithClock(name string, clk clock.Clock) *Kiosk {
	l.TB.Helper()
	return &Kiosk{TB: l.TB, Name: name, Store: session.Open(l.Connect(), clk, l.Leases)}
}

// Generation is one committed completion: which host finished, and which
// run of the session it was.
type Generation struct {
	Host        string
	Incarnation int64
}

func (g Generation) String() string { return fmt.Sprintf("%s/incarnation %d", g.Host, g.Incarnation) }

// Completions lists the runs of session id that committed a completion,
// in the order they committed; an empty list, not nil, when none did.
func (l *Ledger) Completions(id string) []Generation {
	l.TB.Helper()
	done, err := l.first.Completions(l.TB.Context(), id)
	if err != nil {
		l.TB.Fatalf("read completions of %s: %v", id, err)
	}
	out := []Generation{}
	for _, c := range done {
		out = append(out, Generation{Host: c.Host, Incarnation: c.Incarnation})
	}
	return out
}

// Kiosk is one host on its own connection.
type Kiosk struct {
	TB    testing.TB
	Name  string
	Store *session.Store
}

// Claim renews the kiosk's host lease and claims session id, failing the
// test unless both succeed.
func (k *Kiosk) Claim(id string) session.Claim {
	k.TB.Helper()
	k.Alive()
	c, err := k.Store.Claim(k.TB.Context(), id, k.Name)
	if err != nil {
		k.TB.Fatalf("%s claims %s: %v; want a win", k.Name, id, err)
	}
	return c
}

// Alive renews the kiosk's host lease, failing the test if it cannot.
func (k *Kiosk) Alive() {
	k.TB.Helper()
	if _, err := k.Store.RenewHost(k.TB.Context(), k.Name); err != nil {
		k.TB.Fatalf("%s renews its host lease: %v", k.Name, err)
	}
}

// Committed is what Finish reports when the completion was written: not a
// refusal reason, but it reads as one in a failure message
// ("committed != stale_incarnation").
const Committed session.Reason = "committed"

// Finish presents c and returns the refusal reason, or Committed, failing
// the test on an error that is not a refusal.
func (k *Kiosk) Finish(c session.Claim) session.Reason {
	k.TB.Helper()
	err := k.Store.FinishSession(k.TB.Context(), c, "order from "+k.Name)
	if err == nil {
		return Committed
	}
	r, ok := session.ReasonOf(err)
	if !ok {
		k.TB.Fatalf("%s finishes %s (incarnation %d): unexpected error (not a refusal): %v", k.Name, c.Session, c.Incarnation, err)
	}
	return r
}
