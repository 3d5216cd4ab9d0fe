// Package fencedstore is a destination that fences the writes it receives
// with the token each writer presents, key by key: chapter 10's store,
// which a lock service in another place (an etcd cluster) never sees.
//
// The store keeps, for every key, the highest token an accepted write has
// presented: its committed mark. A write whose token is below the mark is
// refused, and changes nothing; any other write is accepted, applies its
// effect and moves the mark up to its token, in one BEGIN IMMEDIATE
// transaction. The store never asks the lock service who holds the lock:
// it judges each write by what it has committed itself, so a writer that
// lost its lock without knowing it is stopped here once a newer holder has
// written, or has claimed the mark with its token (ClaimMark) before it
// works.
//
// Every accepted write, completion and claim is also appended to a log, in
// commit order, for the learner and for the audit that counts stale writes
// after a run; no decision reads the log.
package fencedstore

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Contract is the rule the store admits writes by.
type Contract string

// The two contracts chapter 10 compares.
const (
	// Fence refuses a write or completion whose token is below the key's
	// committed mark. An equal token is accepted: the holder retrying.
	Fence Contract = "fence"
	// None accepts every write whatever its token: the destination of a
	// system that trusts its lock alone.
	None Contract = "none"
)

// Store is the destination stored in one SQLite file, judging by one
// contract.
type Store struct {
	db       *sqlitedb.DB
	contract Contract
}

// Open returns the store kept in db, admitting writes by contract. Call
// CreateSchema once per database first.
func Open(db *sqlitedb.DB, contract Contract) *Store {
	return &Store{db: db, contract: contract}
}

// CreateSchema creates the store's tables: one row per key with its mark,
// its effect count and its completion, and the log of accepted calls.
func CreateSchema(ctx context.Context, db *sqlitedb.DB) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		for _, stmt := range []string{
			// One row per key: the committed mark, how many writes took
			// effect, and the token that completed it (NULL until then).
			`CREATE TABLE IF NOT EXISTS resources (
				key        TEXT PRIMARY KEY,
				mark       INTEGER NOT NULL DEFAULT 0,
				writes     INTEGER NOT NULL DEFAULT 0,
				done_token INTEGER
			)`,
			// Every accepted write and completion, in commit order: a diary
			// for the learner and the audit, never an input to a decision.
			`CREATE TABLE IF NOT EXISTS accepted (
				seq    INTEGER PRIMARY KEY,
				key    TEXT NOT NULL,
				op     TEXT NOT NULL,
				token  INTEGER NOT NULL,
				writer TEXT NOT NULL
			)`,
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("create store schema: %w", err)
			}
		}
		return nil
	})
}

// Add creates key with mark 0, no writes and no completion. Adding a key
// that exists is an error.
func (s *Store) Add(ctx context.Context, key string) error {
	return s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO resources(key) VALUES (?)`, key); err != nil {
			return fmt.Errorf("add %s: %w", key, err)
		}
		return nil
	})
}
