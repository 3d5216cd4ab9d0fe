package queue

// This file holds Finish: the terminal write, fenced by the worker and the
// fence its own claim returned.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Finish marks job id completed, if and only if worker still holds its
// running lease under fence.
//
// The fence is the one the caller's own claim returned, never looked up.
// Worker and fence are checked in the same UPDATE that writes the new
// state, and RowsAffected decides. A worker whose lease was taken over still
// has its old fence; it no longer matches the row, so the finish is refused
// with LeaseLost. That refusal changes the queue only: whatever the worker
// already did elsewhere stays done.
func (q *Queue) Finish(ctx context.Context, id, worker string, fence int64) error {
	return q.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE jobs SET state = 'completed'
			WHERE id = ? AND state = 'running' AND worker = ? AND fence = ?`,
			id, worker, fence)
		if err != nil {
			return fmt.Errorf("finish %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("finish %s: %w", id, err)
		} else if n == 1 {
			return nil
		}
		cur, err := scanJob(tx.QueryRow(ctx, selectJob, id), id)
		if err != nil {
			return err
		}
		return &Refusal{Op: "finish", Job: id, Reason: LeaseLost, Holder: cur.Worker}
	})
}
