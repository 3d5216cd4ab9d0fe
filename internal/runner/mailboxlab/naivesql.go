package mailboxlab

// This file holds the wrong claim the naive experiment demonstrates: read
// the state in one statement, decide in Go, write in another. It is here
// only so the runner can show the bug with real processes; the mechanism
// the course builds is internal/mailbox, and chapter 1 keeps its own copy of
// this mistake for the learner to read and test.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// naiveRead is the read half: what state did this worker see?
func naiveRead(ctx context.Context, db *sqlitedb.DB, id string) (string, error) {
	var state string
	if err := db.QueryRow(ctx, `SELECT state FROM messages WHERE id = ?`, id).Scan(&state); err != nil {
		return "", fmt.Errorf("read %s: %w", id, err)
	}
	return state, nil
}

// naiveWrite is the write half. Its WHERE clause checks nothing but the id:
// whoever writes last is the owner on disk, and every writer believes it
// won.
func naiveWrite(ctx context.Context, db *sqlitedb.DB, id, owner string) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE messages SET state = 'CLAIMED', claim_owner = ? WHERE id = ?`, owner, id)
		return err
	})
}
