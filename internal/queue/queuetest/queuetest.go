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
