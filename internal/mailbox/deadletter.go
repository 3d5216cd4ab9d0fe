package mailbox

// This file holds DeadLetter: the retry budget, and the terminal parking
// spot for a message that keeps failing.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// MaxRetries is how many times a failed message goes back to NEW before
// DeadLetter parks it in DEAD.
const MaxRetries = 3

// Verdict is what DeadLetter did with a failed message.
type Verdict string

// The verdicts of DeadLetter.
const (
	Retried      Verdict = "retried"       // back to NEW, claim cleared, retry_count + 1
	DeadLettered Verdict = "dead_lettered" // DEAD: terminal, body and retry_count kept
)

// DeadLetter records that the holder of tok failed to process message id.
// While the message has retried fewer than MaxRetries times it goes back to
// NEW with its claim cleared; after that it becomes DEAD, a terminal state a
// person can inspect: nothing is deleted.
//
// The presented token is checked with SQLite's null-safe IS, in the same
// UPDATE that moves the message, so a caller working from an out-of-date
// copy, taken before a newer claim won the row, is refused with StaleToken
// and changes nothing.
// Present NoToken for a message that carries no token (never claimed, or
// cleared by a retry). A DONE or DEAD message is refused with Terminal.
func (m *Mailbox) DeadLetter(ctx context.Context, id string, tok int64) (Verdict, error) {
	var verdict Verdict
	err := m.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		cur, err := scanMessage(tx.QueryRow(ctx, selectMessage, id), id)
		if err != nil {
			return err
		}
		update := `UPDATE messages SET state = 'DEAD'
			WHERE id = ? AND state IN ('NEW', 'CLAIMED') AND fencing_token IS ?`
		verdict = DeadLettered
		if cur.RetryCount < MaxRetries {
			update = `UPDATE messages
				SET state = 'NEW', claim_owner = NULL, fencing_token = NULL,
				    claim_expires_at = NULL, retry_count = retry_count + 1
				WHERE id = ? AND state IN ('NEW', 'CLAIMED') AND fencing_token IS ?`
			verdict = Retried
		}
		res, err := tx.Exec(ctx, update, id, nullableToken(tok))
		if err != nil {
			return fmt.Errorf("dead-letter %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("dead-letter %s: %w", id, err)
		} else if n == 1 {
			return nil
		}
		return explainRefusal(ctx, tx, "dead-letter", id)
	})
	if err != nil {
		return "", err
	}
	return verdict, nil
}
