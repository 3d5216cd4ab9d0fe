// Package queuetest gives chapter tests a fresh job queue on a real SQLite
// file under t.TempDir(), with a logical clock they move by hand.
package queuetest

import (
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
	"github.com/fencelab/fencelab/internal/token/tokentest"
)

// Jobs is one test's queue file.
type Jobs struct {
	TB    testing.TB
	Path  string
	Clock *clock.Logical // shared by every queue Queue returns
	first *sqlitedb.DB
}

// New creates an empty queue with its schema in a fresh temporary
// directory. Its connections close when the test ends.
func New(tb testing.TB) *Jobs {
	tb.Helper()
	j := &Jobs{TB: tb, Path: filepath.Join(tb.TempDir(), "queue.db"), Clock: new(clock.Logical)}
	j.first = j.Connect()
	if err := queue.CreateSchema(tb.Context(), j.first); err != nil {
		tb.Fatalf("create queue schema: %v", err)
	}
	return j
}

// Connect opens another, separate connection pool to the queue.
func (j *Jobs) Connect() *sqlitedb.DB {
	j.TB.Helper()
	return sqlitedbtest.Open(j.TB, j.Path)
}

// Queue returns the queue on a new connection, judged by the shared clock,
// with leases lasting lease ticks.
func (j *Jobs) Queue(lease int64) *queue.Queue {
	j.TB.Helper()
	return queue.Open(j.Connect(), j.Clock, lease)
}

// Add stores a queued job.
func (j *Jobs) Add(id, operation string, units int64) {
	j.TB.Helper()
	if err := queue.Open(j.first, j.Clock, 0).Add(j.TB.Context(), id, operation, units); err != nil {
		j.TB.Fatalf("add %s: %v", id, err)
	}
}

// Get returns a job's committed state.
func (j *Jobs) Get(id string) queue.Job {
	j.TB.Helper()
	job, err := queue.Open(j.first, j.Clock, 0).Get(j.TB.Context(), id)
	if err != nil {
		j.TB.Fatalf("get %s: %v", id, err)
	}
	return job
}

// Minted returns how many fences the queue's token counter has issued.
func (j *Jobs) Minted() int64 {
	j.TB.Helper()
	return tokentest.Minted(j.TB, j.first)
}

// BreakFenceCounter makes the shared token counter refuse to mint, as a
// full disk or a broken table would, and returns the function that repairs
// it. Nothing else in the queue changes.
func (j *Jobs) BreakFenceCounter() (repair func()) {
	j.TB.Helper()
	return j.breakTable("lease_tokens", "INSERT")
}

// BreakClaimHistory makes the claim history refuse every new row, and
// returns the function that repairs it.
func (j *Jobs) BreakClaimHistory() (repair func()) {
	j.TB.Helper()
	return j.breakTable("claims", "INSERT")
}

// BreakJobWrites makes every UPDATE of the jobs table fail, and returns
// the function that repairs it. Reads still work.
func (j *Jobs) BreakJobWrites() (repair func()) {
	j.TB.Helper()
	return j.breakTable("jobs", "UPDATE")
}

// breakTable installs a trigger that aborts every event (INSERT, UPDATE)
// on table, and returns the function that drops it.
func (j *Jobs) breakTable(table, event string) (repair func()) {
	j.TB.Helper()
	trigger := table + "_broken"
	j.exec(`CREATE TRIGGER ` + trigger + ` BEFORE ` + event + ` ON ` + table +
		` BEGIN SELECT RAISE(ABORT, 'the ` + table + ` table is broken'); END`)
	return func() {
		j.TB.Helper()
		j.exec(`DROP TRIGGER ` + trigger)
	}
}

// SpoilUnits stores text where job id's units belong, so the job's row can
// no longer be read, as a row written by another program might be; the
// returned function puts the units back. Nothing else in the row changes.
func (j *Jobs) SpoilUnits(id string) (repair func()) {
	j.TB.Helper()
	units := j.Get(id).Units
	j.exec(`UPDATE jobs SET units = 'many' WHERE id = ?`, id)
	return func() {
		j.TB.Helper()
		j.exec(`UPDATE jobs SET units = ? WHERE id = ?`, units, id)
	}
}

// exec runs one statement on the first connection, in a transaction of its
// own.
func (j *Jobs) exec(stmt string, args ...any) {
	j.TB.Helper()
	sqlitedbtest.Exec(j.TB, j.first, stmt, args...)
}

// Claim claims id for worker and fails the test unless it wins.
func Claim(tb testing.TB, q *queue.Queue, id, worker string) queue.Lease {
	tb.Helper()
	l, err := q.Claim(tb.Context(), id, worker)
	if err != nil {
		tb.Fatalf("Claim(%s, %s) = %v; want a win", id, worker, err)
	}
	return l
}

// Accepted is what Reason returns for a request that was not refused, so a
// failure message reads "accepted != lease_lost" rather than showing an
// empty string.
const Accepted queue.Reason = "accepted"

// Reason returns the refusal reason of err, or Accepted for nil, failing
// the test if err is anything else.
func Reason(tb testing.TB, err error) queue.Reason {
	tb.Helper()
	if err == nil {
		return Accepted
	}
	r, ok := queue.ReasonOf(err)
	if !ok {
		tb.Fatalf("unexpected error (not a refusal): %v", err)
	}
	return r
}
