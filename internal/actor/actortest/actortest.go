// Package actortest gives chapter tests a fresh actor ledger on a real
// SQLite file under t.TempDir(), with a logical clock they move by hand,
// and processes on it: each with its own identity and its own connection,
// as separate operating-system processes would have.
package actortest

import (
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
	"github.com/fencelab/fencelab/internal/token/tokentest"
)

// Ledger is one test's actor file.
type Ledger struct {
	TB    testing.TB
	Path  string
	Clock *clock.Logical // shared by every process Process starts
	Lease int64          // how long an actor lease lasts, for every process
	admin *actor.Process // set-up and the test's own committed reads
	db    *sqlitedb.DB   // admin's connection, for reads and damage no Process offers
}

// New creates an empty ledger with the actor schema in a fresh temporary
// directory; every process on it holds an actor lease for lease ticks of
// the clock. Its connections close when the test ends.
func New(tb testing.TB, lease int64) *Ledger {
	tb.Helper()
	l := &Ledger{TB: tb, Path: filepath.Join(tb.TempDir(), "ledger.db"), Clock: new(clock.Logical), Lease: lease}
	db := l.Connect()
	if err := actor.CreateSchema(tb.Context(), db); err != nil {
		tb.Fatalf("create actor schema: %v", err)
	}
	l.admin, l.db = actor.Open(db, l.Clock, lease), db
	return l
}

// Connect opens another, separate connection pool to the ledger.
func (l *Ledger) Connect() *sqlitedb.DB {
	l.TB.Helper()
	return sqlitedbtest.Open(l.TB, l.Path)
}

// Process starts a new process on its own connection, with an identity of
// its own, reading the ledger's clock.
func (l *Ledger) Process() *actor.Process {
	l.TB.Helper()
	return actor.Open(l.Connect(), l.Clock, l.Lease)
}

// Add stores CREATED assignments of actorName.
func (l *Ledger) Add(actorName string, ids ...string) {
	l.TB.Helper()
	for _, id := range ids {
		if err := l.admin.AddAssignment(l.TB.Context(), id, actorName); err != nil {
			l.TB.Fatalf("add %s for %s: %v", id, actorName, err)
		}
	}
}

// Assignment returns an assignment's committed state.
func (l *Ledger) Assignment(id string) actor.Assignment {
	l.TB.Helper()
	a, err := l.admin.Assignment(l.TB.Context(), id)
	if err != nil {
		l.TB.Fatalf("read %s: %v", id, err)
	}
	return a
}

// CurrentLease returns actorName's committed lease.
func (l *Ledger) CurrentLease(actorName string) actor.Lease {
	l.TB.Helper()
	lease, err := l.admin.CurrentLease(l.TB.Context(), actorName)
	if err != nil {
		l.TB.Fatalf("read the lease of %s: %v", actorName, err)
	}
	return lease
}

// Acquire acquires actorName's lease for p and fails the test unless it
// wins.
func Acquire(tb testing.TB, p *actor.Process, actorName string) actor.Lease {
	tb.Helper()
	l, err := p.AcquireLease(tb.Context(), actorName)
	if err != nil {
		tb.Fatalf("process %s acquires %s: %v; want a win", p.ID(), actorName, err)
	}
	return l
}

// Granted is what Reason returns for a request that was not refused, so a
// failure message reads "granted != actor_lease_held" rather than showing
// an empty string.
const Granted actor.Reason = "granted"

// Reason returns the refusal reason of err, or Granted for nil, failing
// the test if err is anything else.
func Reason(tb testing.TB, err error) actor.Reason {
	tb.Helper()
	if err == nil {
		return Granted
	}
	r, ok := actor.ReasonOf(err)
	if !ok {
		tb.Fatalf("unexpected error (not a refusal): %v", err)
	}
	return r
}

// AttemptRecord is one row of the execution_attempts log, as committed.
type AttemptRecord struct {
	ID         string
	Assignment string
	Actor      string
	Process    string
	LeaseToken int64
	Token      int64
	StartedAt  int64
	Outcome    string // "" until the attempt's terminal write lands
}

// Attempts returns the attempts log of assignment id, oldest first.
func (l *Ledger) Attempts(id string) []AttemptRecord {
	l.TB.Helper()
	return l.attempts(`WHERE assignment = ?`, id)
}

func (l *Ledger) attempts(where string, args ...any) []AttemptRecord {
	l.TB.Helper()
	var out []AttemptRecord
	l.query(`SELECT id, assignment, actor, process, lease_token, token, started_at, COALESCE(outcome, '')
		FROM execution_attempts `+where+` ORDER BY token`, args, func(scan func(...any) error) error {
		var r AttemptRecord
		err := scan(&r.ID, &r.Assignment, &r.Actor, &r.Process, &r.LeaseToken, &r.Token, &r.StartedAt, &r.Outcome)
		out = append(out, r)
		return err
	})
	return out
}

// State is everything a ledger has committed, for a test to compare
// whole before and after a request: a refused or failed request must
// leave it exactly as it was.
type State struct {
	Leases      []actor.Lease // every actor's lease row, by actor
	Assignments []actor.Assignment
	Attempts    []AttemptRecord
	Minted      int64 // tokens the shared counter has issued
}

// State reads everything the ledger has committed.
func (l *Ledger) State() State {
	l.TB.Helper()
	var s State
	var actors, ids []string
	l.query(`SELECT actor FROM actor_leases ORDER BY actor`, nil, func(scan func(...any) error) error {
		var a string
		err := scan(&a)
		actors = append(actors, a)
		return err
	})
	for _, a := range actors {
		s.Leases = append(s.Leases, l.CurrentLease(a))
	}
	l.query(`SELECT id FROM assignments ORDER BY id`, nil, func(scan func(...any) error) error {
		var id string
		err := scan(&id)
		ids = append(ids, id)
		return err
	})
	for _, id := range ids {
		s.Assignments = append(s.Assignments, l.Assignment(id))
	}
	s.Attempts = l.attempts("")
	s.Minted = l.Minted()
	return s
}

// query runs a read on the ledger and hands each row's Scan to row,
// failing the test on any error.
func (l *Ledger) query(q string, args []any, row func(scan func(...any) error) error) {
	l.TB.Helper()
	rows, err := l.db.Query(l.TB.Context(), q, args...)
	if err != nil {
		l.TB.Fatalf("ledger: %s: %v", q, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			l.TB.Fatalf("ledger: %s: %v", q, err)
		}
	}
	if err := rows.Err(); err != nil {
		l.TB.Fatalf("ledger: %s: %v", q, err)
	}
}

// Minted returns how many tokens the ledger's shared counter has issued.
func (l *Ledger) Minted() int64 {
	l.TB.Helper()
	return tokentest.Minted(l.TB, l.db)
}
