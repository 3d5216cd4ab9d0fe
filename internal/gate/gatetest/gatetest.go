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
	d.exec(`CREATE TRIGGER arrivals_broken BEFORE INSERT ON arrivals
		BEGIN SELECT RAISE(ABORT, 'the arrivals log is broken'); END`)
	return func() {
		d.TB.Helper()
		d.exec(`DROP TRIGGER arrivals_broken`)
	}
}

// BreakArrivalsLogOf is BreakArrivalsLog for a destination file a test
// opened and closes itself: db is a connection to it that no gate writes
// on.
func BreakArrivalsLogOf(tb testing.TB, db *sqlitedb.DB) (repair func()) {
	tb.Helper()
	return (&Destination{TB: tb, first: db}).BreakArrivalsLog()
}

// BreakMarkWrites makes every write of the committed mark fail, and
// returns the function that repairs it. The counter can still change.
func (d *Destination) BreakMarkWrites() (repair func()) {
	d.TB.Helper()
	return d.breakWrites("mark_broken", "UPDATE OF highest_fence ON resource", "the mark cannot be written")
}

// BreakEffect makes every write of the counter fail, and returns the
// function that repairs it. The mark can still change.
func (d *Destination) BreakEffect() (repair func()) {
	d.TB.Helper()
	return d.breakWrites("effect_broken", "UPDATE OF units ON resource", "the counter cannot be written")
}

// BreakReceipts makes the receipts table refuse every new row, and returns
// the function that repairs it.
func (d *Destination) BreakReceipts() (repair func()) {
	d.TB.Helper()
	return d.breakWrites("receipts_broken", "INSERT ON receipts", "the receipts table is broken")
}

// EndMarkTransactions makes every write of the committed mark fail and
// take its whole transaction with it, as SQLite does for a full disk or an
// I/O error: the ROLLBACK its caller then runs fails too, there being no
// transaction left. It returns the function that repairs it.
func (d *Destination) EndMarkTransactions() (repair func()) {
	d.TB.Helper()
	d.exec(`CREATE TRIGGER mark_ends_transaction BEFORE UPDATE OF highest_fence ON resource
		BEGIN SELECT RAISE(ROLLBACK, 'the write of the mark ends its transaction'); END`)
	return func() {
		d.TB.Helper()
		d.exec(`DROP TRIGGER mark_ends_transaction`)
	}
}

// breakWrites installs trigger, which aborts every event (for example
// "INSERT ON receipts") with message, and returns the function that drops
// it.
func (d *Destination) breakWrites(trigger, event, message string) (repair func()) {
	d.TB.Helper()
	d.exec(`CREATE TRIGGER ` + trigger + ` BEFORE ` + event + ` BEGIN SELECT RAISE(ABORT, '` + message + `'); END`)
	return func() {
		d.TB.Helper()
		d.exec(`DROP TRIGGER ` + trigger)
	}
}

// SpoilReceipt stores text where the units of operation's receipt belong,
// so the receipt can no longer be read, as a row written by another
// program might be; the returned function puts the units back.
func (d *Destination) SpoilReceipt(operation string) (repair func()) {
	d.TB.Helper()
	var units int64
	if err := d.first.QueryRow(d.TB.Context(), `SELECT units FROM receipts WHERE operation = ?`, operation).Scan(&units); err != nil {
		d.TB.Fatalf("destination: receipt %s: %v", operation, err)
	}
	d.exec(`UPDATE receipts SET units = 'many' WHERE operation = ?`, operation)
	return func() {
		d.TB.Helper()
		d.exec(`UPDATE receipts SET units = ? WHERE operation = ?`, units, operation)
	}
}

// SpoilCounter adds half a unit to the counter, as another program writing
// to the file might, so that neither the committed counter nor any later
// transaction's view of it can be read as a whole number of units; the
// returned function takes the half unit away again.
func (d *Destination) SpoilCounter() (repair func()) {
	d.TB.Helper()
	d.exec(`UPDATE resource SET units = units + 0.5`)
	return func() {
		d.TB.Helper()
		d.exec(`UPDATE resource SET units = CAST(units - 0.5 AS INTEGER)`)
	}
}

// SpoilArrival stores text where the units of the arrivals log's nth line
// (1 is the oldest) belong, so that line can no longer be read; the
// returned function puts the units back.
func (d *Destination) SpoilArrival(n int) (repair func()) {
	d.TB.Helper()
	line := d.Arrivals()[n-1]
	const nth = `(SELECT seq FROM arrivals ORDER BY seq LIMIT 1 OFFSET ?)`
	d.exec(`UPDATE arrivals SET units = 'many' WHERE seq = `+nth, n-1)
	return func() {
		d.TB.Helper()
		d.exec(`UPDATE arrivals SET units = ? WHERE seq = `+nth, line.Units, n-1)
	}
}

// BreakArrivalsReads makes every read of the arrivals log fail once it has
// returned the oldest line, as a damaged page in the middle of the table
// would, and returns the function that repairs it. The log's lines stay
// as they were, in a table the destination no longer reads.
func (d *Destination) BreakArrivalsReads() (repair func()) {
	d.TB.Helper()
	d.exec(`ALTER TABLE arrivals RENAME TO arrivals_kept`)
	// abs() of the smallest integer overflows: an error SQLite raises while
	// stepping to the second line, after the first was returned.
	d.exec(`CREATE VIEW arrivals AS SELECT seq, fence, operation,
		CASE WHEN seq = (SELECT MIN(seq) FROM arrivals_kept) THEN units ELSE abs(-9223372036854775808) END AS units,
		result FROM arrivals_kept`)
	return func() {
		d.TB.Helper()
		d.exec(`DROP VIEW arrivals`)
		d.exec(`ALTER TABLE arrivals_kept RENAME TO arrivals`)
	}
}

// UncheckpointedFrames runs a passive checkpoint of the destination's
// write-ahead log on a connection of its own and returns how many frames
// it could not copy back into the database file. Only a read transaction
// left open on some connection, holding an older snapshot, keeps a frame
// from being copied.
func (d *Destination) UncheckpointedFrames() int {
	d.TB.Helper()
	var busy, frames, copied int
	if err := d.Connect().QueryRow(d.TB.Context(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		d.TB.Fatalf("destination: checkpoint: %v", err)
	}
	return frames - copied
}

// exec runs one statement on the observer's connection, in a transaction
// of its own.
func (d *Destination) exec(stmt string, args ...any) {
	d.TB.Helper()
	sqlitedbtest.Exec(d.TB, d.first, stmt, args...)
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
