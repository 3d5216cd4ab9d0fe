// Package gatetest gives chapter tests a fresh destination on a real SQLite
// file under t.TempDir(), and gates on separate connections to it, as
// separate worker processes would have.
package gatetest

import (
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// Destination is one test's destination file.
type Destination struct {
	TB    testing.TB
	Path  string
	first *sqlitedb.DB // the observer's connection: no gate writes on it
}

// New creates a destination with the gate schema (mark 0, zero units, no
// receipts) in a fresh temporary directory. Its connections close when the
// test ends.
func New(tb testing.TB) *Destination {
	tb.Helper()
	d := &Destination{TB: tb, Path: filepath.Join(tb.TempDir(), "destination.db")}
	d.first = d.Connect()
	if err := gate.CreateSchema(tb.Context(), d.first); err != nil {
		tb.Fatalf("create destination schema: %v", err)
	}
	return d
}

// Connect opens another, separate connection pool to the destination.
func (d *Destination) Connect() *sqlitedb.DB {
	d.TB.Helper()
	return sqlitedbtest.Open(d.TB, d.Path)
}

// Gate returns a gate judging by contract on a new connection: what one
// worker's process would have.
func (d *Destination) Gate(contract gate.Contract) *gate.Gate {
	d.TB.Helper()
	return gate.Open(d.Connect(), contract)
}

// State returns the destination's committed state, read through a
// connection no gate writes on.
func (d *Destination) State() gate.State {
	d.TB.Helper()
	s, err := gate.Open(d.first, gate.None).State(d.TB.Context())
	if err != nil {
		d.TB.Fatalf("%v", err)
	}
	return s
}

// Arrivals returns the destination's committed arrivals log, oldest line
// first, read through a connection no gate writes on.
func (d *Destination) Arrivals() []gate.Arrival {
	d.TB.Helper()
	log, err := gate.Open(d.first, gate.None).Arrivals(d.TB.Context())
	if err != nil {
		d.TB.Fatalf("%v", err)
	}
	return log
}

// BreakArrivalsLog makes the destination refuse every new row of its
// arrivals log, as a full disk or a broken log table would, and returns the
// function that repairs it. Nothing else in the destination changes.
func (d *Destination) BreakArrivalsLog() (repair func()) {
	d.TB.Helper()
	return BreakArrivalsLogOf(d.TB, d.first)
}

// BreakArrivalsLogOf is BreakArrivalsLog for a destination file a test
// opened itself: db is a connection to it that no gate writes on.
func BreakArrivalsLogOf(tb testing.TB, db *sqlitedb.DB) (repair func()) {
	tb.Helper()
	exec(tb, db, `CREATE TRIGGER arrivals_broken BEFORE INSERT ON arrivals
		BEGIN SELECT RAISE(ABORT, 'the arrivals log is broken'); END`)
	return func() {
		tb.Helper()
		exec(tb, db, `DROP TRIGGER arrivals_broken`)
	}
}

// exec runs one statement on db, in a transaction of its own.
func exec(tb testing.TB, db *sqlitedb.DB, stmt string) {
	tb.Helper()
	ctx := tb.Context()
	err := db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, stmt)
		return err
	})
	if err != nil {
		tb.Fatalf("destination: %v", err)
	}
}

// Apply sends req through g and fails the test if the gate returns an
// error instead of an answer.
func Apply(tb testing.TB, g *gate.Gate, req gate.Request) gate.Outcome {
	tb.Helper()
	out, err := g.Apply(tb.Context(), req)
	if err != nil {
		tb.Fatalf("Apply(fence %d, %s, %d units) = error %v; want an answer", req.Fence, req.Operation, req.Units, err)
	}
	return out
}
