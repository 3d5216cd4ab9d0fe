// Package naiveclaim is chapter 1: the claim that reads, decides, then
// writes, and why two workers both walk away believing they own the
// message.
//
// The wrong version lives here, in the chapter, on purpose: it is the thing
// to read and to watch fail. The repair is internal/mailbox.
package naiveclaim

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// ReadState is the read half of the naive claim: the state the worker saw.
func ReadState(ctx context.Context, db *sqlitedb.DB, id string) (string, error) {
	var state string
	if err := db.QueryRow(ctx, `SELECT state FROM messages WHERE id = ?`, id).Scan(&state); err != nil {
		return "", fmt.Errorf("read %s: %w", id, err)
	}
	return state, nil
}

// DecideToClaim is the decision, made in Go from what the worker saw. By
// the time the worker acts on it, it may no longer be true.
func DecideToClaim(saw string) bool { return saw == "NEW" }

// WriteClaim is the write half. Its WHERE clause names the message and
// nothing else, so it always succeeds: the last writer is the owner on disk
// and every writer believes it won.
func WriteClaim(ctx context.Context, db *sqlitedb.DB, id, owner string) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE messages SET state = 'CLAIMED', claim_owner = ? WHERE id = ?`, owner, id)
		return err
	})
}

// Complete is the naive completion: it marks the message DONE for whoever
// asks.
func Complete(ctx context.Context, db *sqlitedb.DB, id string) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE messages SET state = 'DONE' WHERE id = ?`, id)
		return err
	})
}
