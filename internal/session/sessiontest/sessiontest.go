// Package sessiontest gives chapter tests a fresh session ledger on a real
// SQLite file under t.TempDir(), with a logical clock they move by hand,
// and kiosks on it: hosts with connections of their own, as separate
// processes would have.
package sessiontest

import (
	"errors"
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
	db     *sqlitedb.DB   // the connection first reads on; the test's own writes go through it too
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
	l.first, l.db = session.Open(db, l.Clock, leases), db
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

// Session returns the committed row of session id, failing the test if
// there is none or it cannot be read.
func (l *Ledger) Session(id string) session.Session {
	l.TB.Helper()
	s, err := l.first.Get(l.TB.Context(), id)
	if err != nil {
		l.TB.Fatalf("read session %s: %v", id, err)
	}
	return s
}

// State is everything the ledger has committed about one session: its
// row, and every completion of it. A test compares two States whole to
// show that a write changed nothing.
type State struct {
	Found       bool            // the session has a row
	Row         session.Session // the row; zero when not Found
	Completions []session.Completion
}

// State reads the committed State of session id, failing the test if it
// cannot.
func (l *Ledger) State(id string) State {
	l.TB.Helper()
	ctx := l.TB.Context()
	row, err := l.first.Get(ctx, id)
	if err != nil && !errors.Is(err, session.ErrNotFound) {
		l.TB.Fatalf("read session %s: %v", id, err)
	}
	done, err := l.first.Completions(ctx, id)
	if err != nil {
		l.TB.Fatalf("read completions of %s: %v", id, err)
	}
	return State{Found: row.ID != "", Row: row, Completions: done}
}

// BreakWrites makes every statement stmt ("INSERT" or "UPDATE") on table
// fail, as a full disk or a damaged table would, and returns the function
// that repairs it. Reads still work, and nothing already committed
// changes.
func (l *Ledger) BreakWrites(stmt, table string) (repair func()) {
	l.TB.Helper()
	trigger := fmt.Sprintf("%s_%s_broken", table, stmt)
	l.exec(fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s
		BEGIN SELECT RAISE(ABORT, 'every %s on %s fails'); END`, trigger, stmt, table, stmt, table))
	return func() {
		l.TB.Helper()
		l.exec(`DROP TRIGGER ` + trigger)
	}
}

// GarbleSession writes text where session id keeps its incarnation, so that
// reading the row back fails: a row the store cannot understand.
func (l *Ledger) GarbleSession(id string) {
	l.TB.Helper()
	l.exec(`UPDATE sessions SET incarnation = 'garbled' WHERE id = ?`, id)
}

// GarbleHost writes text where host keeps its lease's end, so that reading
// the host's lease back fails.
func (l *Ledger) GarbleHost(host string) {
	l.TB.Helper()
	l.exec(`UPDATE hosts SET lease_expires_at = 'garbled' WHERE host = ?`, host)
}

// GarbleCompletions writes text where every completion of session id keeps
// its incarnation, so that reading them back fails.
func (l *Ledger) GarbleCompletions(id string) {
	l.TB.Helper()
	l.exec(`UPDATE session_completions SET incarnation = 'garbled' WHERE session_id = ?`, id)
}

// Checkpoint asks SQLite to copy the write-ahead log back into the
// database file without waiting for anyone (PRAGMA wal_checkpoint(PASSIVE))
// and returns how many frames the log holds and how many it copied. It
// copies them all unless some connection still reads an older snapshot.
func (l *Ledger) Checkpoint() (logged, copied int) {
	l.TB.Helper()
	var busy int
	err := l.db.QueryRow(l.TB.Context(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &copied)
	if err != nil {
		l.TB.Fatalf("checkpoint %s: %v", l.Path, err)
	}
	return logged, copied
}

// exec runs one statement on the ledger's own connection, in a transaction
// of its own, failing the test if it cannot.
func (l *Ledger) exec(stmt string, args ...any) {
	l.TB.Helper()
	sqlitedbtest.Exec(l.TB, l.db, stmt, args...)
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

// Claimed is what TryClaim reports when the claim won: not a refusal
// reason, but it reads as one in a failure message.
const Claimed session.Reason = "claimed"

// TryClaim claims session id without renewing the kiosk's host lease, and
// returns the claim and Claimed if it won, or the refusal reason; it fails
// the test on an error that is not a refusal.
func (k *Kiosk) TryClaim(id string) (session.Claim, session.Reason) {
	k.TB.Helper()
	c, err := k.Store.Claim(k.TB.Context(), id, k.Name)
	if err == nil {
		return c, Claimed
	}
	r, ok := session.ReasonOf(err)
	if !ok {
		k.TB.Fatalf("%s claims %s: unexpected error (not a refusal): %v", k.Name, id, err)
	}
	return c, r
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

// Failed checks that err reports a failure of the ledger itself: an
// error, and not a refusal a caller would take as the ledger's answer.
// what names the call in the failure message.
func Failed(tb testing.TB, err error, what string) {
	tb.Helper()
	if err == nil {
		tb.Fatalf("%s succeeded on a ledger that cannot take it; want an error", what)
	}
	if r, refused := session.ReasonOf(err); refused {
		tb.Errorf("%s was refused (%s) on a ledger that cannot take it; want an error, not a refusal", what, r)
	}
}
