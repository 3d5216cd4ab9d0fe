// Package queue is a durable job queue whose workers hold a job under a
// lease: a bounded interval of logical time, fenced by a token.
//
// A claim mints a fence from the shared token counter (internal/token) in the
// same BEGIN IMMEDIATE transaction as the compare-and-set that hands over the
// job, so a takeover after expiry always carries a greater fence than the
// lease it replaces. Finish checks the caller's worker and fence in its
// UPDATE's WHERE clause and lets RowsAffected decide. A worker that lost its
// lease is refused there, but only there: the queue cannot undo anything the
// worker already did in another system. That is the destination's business
// (see internal/gate).
package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// State is where a job is in its life.
type State string

// The states a job moves through. Completed is terminal.
const (
	Queued    State = "queued"
	Running   State = "running"
	Completed State = "completed"
)

// ErrNotFound is returned when no job has the given id.
var ErrNotFound = errors.New("queue: no such job")

// Job is one row of the jobs table, as committed.
type Job struct {
	ID        string
	Operation string // the business operation the job asks for, e.g. OP-1
	Units     int64  // how many units the operation adds
	State     State
	Worker    string // the worker holding (or last holding) the lease; "" when queued
	Fence     int64  // the fence of that lease; 0 when queued
	ExpiresAt int64  // when that lease lapses, in the clock's units
	Claims    int    // how many claims the job has had, from the claim history
}

// Queue is the jobs table of one database, judged by one clock.
type Queue struct {
	db    *sqlitedb.DB
	clock clock.Clock
	lease int64
}

// Open returns the queue stored in db. Leases last lease units of clk's
// time. Call CreateSchema once per database before using it.
func Open(db *sqlitedb.DB, clk clock.Clock, lease int64) *Queue {
	return &Queue{db: db, clock: clk, lease: lease}
}

// CreateSchema creates the jobs table, its claim history and the shared
// token counter.
func CreateSchema(ctx context.Context, db *sqlitedb.DB) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if err := token.CreateTable(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS jobs (
			id               TEXT PRIMARY KEY,
			operation        TEXT NOT NULL,
			units            INTEGER NOT NULL,
			state            TEXT NOT NULL DEFAULT 'queued',
			worker           TEXT,
			fence            INTEGER,
			lease_expires_at INTEGER
		)`); err != nil {
			return fmt.Errorf("create jobs: %w", err)
		}
		// One row per successful claim: who, under which fence, when, until
		// when. A learner who opens the file reads the takeover here.
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS claims (
			seq        INTEGER PRIMARY KEY,
			job        TEXT NOT NULL REFERENCES jobs(id),
			fence      INTEGER NOT NULL,
			worker     TEXT NOT NULL,
			claimed_at INTEGER NOT NULL,
			expires_at INTEGER NOT NULL
		)`); err != nil {
			return fmt.Errorf("create claims: %w", err)
		}
		return nil
	})
}

// Add stores a new queued job asking for operation with units.
func (q *Queue) Add(ctx context.Context, id, operation string, units int64) error {
	return q.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO jobs(id, operation, units) VALUES (?, ?, ?)`, id, operation, units)
		if err != nil {
			return fmt.Errorf("add %s: %w", id, err)
		}
		return nil
	})
}

// Get returns the committed state of job id.
func (q *Queue) Get(ctx context.Context, id string) (Job, error) {
	return scanJob(q.db.QueryRow(ctx, selectJob, id), id)
}

const selectJob = `SELECT id, operation, units, state, worker, fence, lease_expires_at,
		(SELECT COUNT(*) FROM claims WHERE claims.job = jobs.id)
	FROM jobs WHERE id = ?`

// scanJob reads one row of selectJob.
func scanJob(row *sql.Row, id string) (Job, error) {
	var (
		j       Job
		state   string
		worker  sql.NullString
		fence   sql.NullInt64
		expires sql.NullInt64
	)
	err := row.Scan(&j.ID, &j.Operation, &j.Units, &state, &worker, &fence, &expires, &j.Claims)
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Job{}, fmt.Errorf("read %s: %w", id, err)
	}
	j.State = State(state)
	j.Worker, j.Fence, j.ExpiresAt = worker.String, fence.Int64, expires.Int64
	return j, nil
}
