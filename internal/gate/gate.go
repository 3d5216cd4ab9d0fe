// Package gate is a destination that decides, on its own, whether a worker's
// request may change it: one synthetic counter guarded by a committed fence
// mark and, optionally, by operation receipts.
//
// The gate never asks the queue whether a lease is current. It judges each
// request by what it has itself committed: the highest fence an admitted,
// non-conflicting transaction stored (the committed high-water mark) and
// the receipts of the operations it already applied. Mark, effect and
// receipt commit together in one BEGIN IMMEDIATE transaction, or roll back
// together; a token the gate merely received, or saw in a transaction that
// rolled back, establishes nothing.
package gate

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Contract is the rule a destination admits requests by.
type Contract string

// The three contracts the chapters compare.
const (
	// None applies every request blindly; fences are ignored.
	None Contract = "none"
	// Fence rejects a request whose fence is below the committed mark.
	// An equal fence is admitted, so a same-owner retry applies again.
	Fence Contract = "fence"
	// FenceReceipt fences as Fence does and also binds each operation id
	// to its units: a matching retry is replayed, a different payload is a
	// conflict.
	FenceReceipt Contract = "fence+receipt"
)

// Contracts lists every contract, for messages that name what is allowed.
var Contracts = []Contract{None, Fence, FenceReceipt}

// ParseContract returns the contract named s.
func ParseContract(s string) (Contract, error) {
	for _, c := range Contracts {
		if string(c) == s {
			return c, nil
		}
	}
	names := make([]string, len(Contracts))
	for i, c := range Contracts {
		names[i] = string(c)
	}
	return "", fmt.Errorf("gate: unknown contract %q: want one of %s", s, strings.Join(names, ", "))
}

// State is the destination's committed state, as a separate connection
// reads it (or, for the uncommitted failure view, as the failing
// transaction saw itself).
type State struct {
	HighestFence int64 `json:"highest_fence"` // the committed admission mark
	Units        int64 `json:"units"`         // the synthetic counter
	Receipts     int64 `json:"receipts"`      // how many operations have a receipt
}

// Gate is the destination stored in one database, judging by one contract.
type Gate struct {
	db       *sqlitedb.DB
	contract Contract
}

// Open returns the destination stored in db, admitting requests by
// contract. Call CreateSchema once per database before using it.
func Open(db *sqlitedb.DB, contract Contract) *Gate {
	return &Gate{db: db, contract: contract}
}

// CreateSchema creates the resource row (zero units, mark 0), the receipts
// and the arrivals log.
func CreateSchema(ctx context.Context, db *sqlitedb.DB) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		for _, stmt := range []string{
			// One synthetic resource: the counter and its committed mark.
			`CREATE TABLE IF NOT EXISTS resource (
				id            INTEGER PRIMARY KEY CHECK (id = 1),
				units         INTEGER NOT NULL DEFAULT 0,
				highest_fence INTEGER NOT NULL DEFAULT 0
			)`,
			`INSERT OR IGNORE INTO resource(id) VALUES (1)`,
			// What each applied operation asked for, and under which fence.
			`CREATE TABLE IF NOT EXISTS receipts (
				operation TEXT PRIMARY KEY,
				units     INTEGER NOT NULL,
				fence     INTEGER NOT NULL
			)`,
			// Every request the gate answered, whatever the answer: a diary
			// for the learner, never an input to a decision.
			`CREATE TABLE IF NOT EXISTS arrivals (
				seq       INTEGER PRIMARY KEY,
				fence     INTEGER NOT NULL,
				operation TEXT NOT NULL,
				units     INTEGER NOT NULL,
				result    TEXT NOT NULL
			)`,
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("create destination schema: %w", err)
			}
		}
		return nil
	})
}

// State returns the destination's committed state.
func (g *Gate) State(ctx context.Context) (State, error) {
	return scanState(g.db.QueryRow(ctx, selectState))
}

const selectState = `SELECT highest_fence, units, (SELECT COUNT(*) FROM receipts)
	FROM resource WHERE id = 1`

// scanState reads one row of selectState.
func scanState(row *sql.Row) (State, error) {
	var s State
	if err := row.Scan(&s.HighestFence, &s.Units, &s.Receipts); err != nil {
		return State{}, fmt.Errorf("read destination state: %w", err)
	}
	return s, nil
}
