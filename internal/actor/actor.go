// Package actor fences the work of durable actors at two levels: an actor
// lease says which process may act for an actor now, and an execution
// attempt says which run of one assignment is current.
//
// An actor (operator-course) is an identity that outlives any process. A
// Process is one running instance of the program, named by a fresh random
// identity (package identity), never a PID. A restart, or a stalled worker
// replaced while it still runs, leaves two processes acting for one actor,
// and the ledger lets only one of them act:
//
//   - AcquireLease is a compare-and-set: while one process holds a live
//     lease on an actor, every other acquire is refused. Each acquire mints
//     a fencing token from the one shared counter (package token).
//   - AcquireAttempt binds an attempt on one assignment to the lease token
//     it descends from, re-reading the actor's current lease inside its own
//     transaction: a stale token starts nothing, and neither does another
//     process's token. A lease belongs to the process that acquired it.
//   - RunAssignment is the ordinary path every caller uses: lease, attempt,
//     RUNNING, the provider, and a terminal write. RUNNING and the terminal
//     write each check, in the same statement, that the attempt is still
//     current and that its lease is still this process's live lease. The
//     lease is released on every path out.
//
// Every write that decides authority is one BEGIN IMMEDIATE transaction
// whose statement checks the presented token in its WHERE clause. The
// guarantees stop at the ledger: a process that lost its lease keeps
// running and may act elsewhere, but none of its ledger writes take effect.
package actor

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/identity"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// State is where an assignment is in its life.
type State string

// The states of an assignment. COMPLETED, BLOCKED and FAILED are terminal.
const (
	Created   State = "CREATED"
	Running   State = "RUNNING"
	Completed State = "COMPLETED"
	Blocked   State = "BLOCKED"
	Failed    State = "FAILED"
)

// Terminal reports whether s is a final state nothing may move again.
func (s State) Terminal() bool { return s == Completed || s == Blocked || s == Failed }

// ErrNotFound is returned when no assignment has the given id.
var ErrNotFound = errors.New("actor: no such assignment")

// Process is one running instance of the program, acting for actors on one
// ledger. Two Process values on two connections behave exactly like two
// operating-system processes: they share nothing but the database file.
type Process struct {
	db    *sqlitedb.DB
	clock clock.Clock
	id    string
	lease int64
}

// Open starts a process on db with a fresh identity. Its actor leases last
// lease units of clk's time. Call CreateSchema once per database first.
func Open(db *sqlitedb.DB, clk clock.Clock, lease int64) *Process {
	return &Process{db: db, clock: clk, id: identity.New(), lease: lease}
}

// ID returns the process's identity: a random UUID drawn when it started.
func (p *Process) ID() string { return p.id }

// CreateSchema creates the actor_leases, assignments and execution_attempts
// tables, and the shared token counter.
func CreateSchema(ctx context.Context, db *sqlitedb.DB) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if err := token.CreateTable(ctx, tx); err != nil {
			return err
		}
		for _, stmt := range []string{
			// holder and expires_at are NULL when the lease is free; token
			// keeps the last lease's token.
			`CREATE TABLE IF NOT EXISTS actor_leases (
				actor      TEXT PRIMARY KEY,
				holder     TEXT,
				token      INTEGER,
				expires_at INTEGER
			)`,
			// attempt_* and lease_token describe the current attempt: its
			// id, its token, and the actor-lease token it descended from.
			`CREATE TABLE IF NOT EXISTS assignments (
				id            TEXT PRIMARY KEY,
				actor         TEXT NOT NULL,
				state         TEXT NOT NULL DEFAULT 'CREATED',
				attempt_id    TEXT,
				attempt_token INTEGER,
				lease_token   INTEGER
			)`,
			`CREATE TABLE IF NOT EXISTS execution_attempts (
				id          TEXT PRIMARY KEY,
				assignment  TEXT NOT NULL REFERENCES assignments(id),
				actor       TEXT NOT NULL,
				process     TEXT NOT NULL,
				lease_token INTEGER NOT NULL,
				token       INTEGER NOT NULL,
				started_at  INTEGER NOT NULL,
				outcome     TEXT
			)`,
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("create actor schema: %w", err)
			}
		}
		return nil
	})
}

// Assignment is one row of the assignments table, as committed.
type Assignment struct {
	ID           string
	Actor        string
	State        State
	AttemptID    string // "" until an attempt is acquired
	AttemptToken int64
	LeaseToken   int64 // the lease token the current attempt descended from
}

// AddAssignment stores a new assignment for actor in state CREATED.
func (p *Process) AddAssignment(ctx context.Context, id, actor string) error {
	return p.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO assignments(id, actor) VALUES (?, ?)`, id, actor)
		if err != nil {
			return fmt.Errorf("add assignment %s: %w", id, err)
		}
		return nil
	})
}

// Assignment returns the committed state of assignment id.
func (p *Process) Assignment(ctx context.Context, id string) (Assignment, error) {
	return readAssignment(ctx, p.db, id)
}

func readAssignment(ctx context.Context, q sqlitedb.Querier, id string) (Assignment, error) {
	var (
		a          Assignment
		state      string
		attemptID  sql.NullString
		attemptTok sql.NullInt64
		leaseTok   sql.NullInt64
	)
	err := q.QueryRow(ctx, `SELECT id, actor, state, attempt_id, attempt_token, lease_token
		FROM assignments WHERE id = ?`, id).Scan(&a.ID, &a.Actor, &state, &attemptID, &attemptTok, &leaseTok)
	if errors.Is(err, sql.ErrNoRows) {
		return Assignment{}, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Assignment{}, fmt.Errorf("read assignment %s: %w", id, err)
	}
	a.State = State(state)
	a.AttemptID, a.AttemptToken, a.LeaseToken = attemptID.String, attemptTok.Int64, leaseTok.Int64
	return a, nil
}
