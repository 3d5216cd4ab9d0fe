package mailbox

// This file holds Complete: the terminal write, fenced by the token the
// caller's own claim returned.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Complete marks message id DONE, if and only if owner still holds it under
// tok.
//
// The token is a required argument, never looked up: the caller presents
// the token its own most recent successful claim returned. It is checked in
// the same UPDATE that writes DONE, and RowsAffected decides. A worker whose
// lease was taken over still has its old token, and that token no longer
// matches the row: the completion is refused with StaleToken, even though
// the worker is alive and did the work. A message already DONE or DEAD is
// refused with Terminal.
func (m *Mailbox) Complete(ctx context.Context, id, owner string, tok int64) error {
	return m.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE messages SET state = 'DONE'
			WHERE id = ? AND state = 'CLAIMED' AND claim_owner = ? AND fencing_token = ?`,
			id, owner, tok)
		if err != nil {
			return fmt.Errorf("complete %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("complete %s: %w", id, err)
		} else if n == 1 {
			return nil
		}
		return explainRefusal(ctx, tx, "complete", id)
	})
}

// explainRefusal reads the row a fenced UPDATE did not change and says why:
// the message is gone, it is terminal, or the token was stale.
func explainRefusal(ctx context.Context, tx *sqlitedb.Tx, op, id string) error {
	cur, err := scanMessage(tx.QueryRow(ctx, selectMessage, id), id)
	if err != nil {
		return err
	}
	r := &Refusal{Op: op, ID: id, Reason: StaleToken}
	if cur.State == Done || cur.State == Dead {
		r.Reason = Terminal
	}
	return r
}
