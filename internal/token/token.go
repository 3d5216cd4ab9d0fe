// Package token mints fencing tokens from the one counter every claim of
// every kind shares: the lease_tokens table.
//
// A fencing token is an ownership generation. Because mailbox claims, actor
// leases, execution attempts and queue fences all draw from the same
// AUTOINCREMENT column, a token is strictly greater than every token minted
// before it in that database, forever, whatever kind of claim minted it.
// AUTOINCREMENT (not a bare INTEGER PRIMARY KEY) matters: it never reuses a
// value, even after the highest row is deleted.
package token

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Kind labels what a token was minted for. It is recorded for the learner
// who opens the table; it plays no part in ordering.
type Kind string

// The kinds of claim fencelab mints tokens for.
const (
	MailboxClaim     Kind = "mailbox_claim"
	QueueFence       Kind = "queue_fence"
	ActorLease       Kind = "actor_lease"
	ExecutionAttempt Kind = "execution_attempt"
)

// CreateTable creates the shared counter if it does not exist yet.
func CreateTable(ctx context.Context, tx *sqlitedb.Tx) error {
	_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS lease_tokens (
		token INTEGER PRIMARY KEY AUTOINCREMENT,
		kind  TEXT NOT NULL
	)`)
	if err != nil {
		return fmt.Errorf("create lease_tokens: %w", err)
	}
	return nil
}

// Mint draws the next token inside tx. It must be called in the same
// transaction as the compare-and-set the token fences: if that transaction
// rolls back (the claim was refused), the mint rolls back with it and no
// number is burned.
func Mint(ctx context.Context, tx *sqlitedb.Tx, kind Kind) (int64, error) {
	res, err := tx.Exec(ctx, `INSERT INTO lease_tokens(kind) VALUES (?)`, string(kind))
	if err != nil {
		return 0, fmt.Errorf("mint %s token: %w", kind, err)
	}
	return res.LastInsertId()
}
