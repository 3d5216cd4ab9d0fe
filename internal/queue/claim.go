package queue

// This file holds Claim: the compare-and-set that hands a job to a worker
// under a fresh fence, and takes it over once the previous lease expired.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// Lease is what a successful claim hands its worker.
type Lease struct {
	Job       string
	Worker    string
	Fence     int64 // present it to Finish, and to every destination the job touches
	ExpiresAt int64
}

// Claim gives job id to worker at the clock's current time, for the
// queue's lease length.
//
// The worker wins only by compare-and-set: the job is queued, or it is
// running under a lease that has expired (expires_at <= now). Every win
// mints a new fence from the shared counter in the same transaction, so a
// takeover's fence is strictly greater than the one it replaces, even when
// the same worker takes back its own lapsed lease. Each win is recorded in
// the claim history.
//
// A refused claim returns a *Refusal (LeaseHeld with the holder, or
// Finished) and burns no fence: the mint rolls back with the refusal.
func (q *Queue) Claim(ctx context.Context, id, worker string) (Lease, error) {
	now := q.clock.Now()
	won := Lease{Job: id, Worker: worker, ExpiresAt: clock.Expiry(now, q.lease)}
	err := q.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		cur, err := scanJob(tx.QueryRow(ctx, selectJob, id), id)
		if err != nil {
			return err
		}
		fence, err := token.Mint(ctx, tx, token.QueueFence)
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE jobs
			SET state = 'running', worker = ?, fence = ?, lease_expires_at = ?
			WHERE id = ?
			  AND (state = 'queued' OR (state = 'running' AND lease_expires_at <= ?))`,
			worker, fence, won.ExpiresAt, id, now)
		if err != nil {
			return fmt.Errorf("claim %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("claim %s: %w", id, err)
		} else if n != 1 {
			return claimRefusal(cur)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO claims(fence, job, worker, claimed_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`, fence, id, worker, now, won.ExpiresAt); err != nil {
			return fmt.Errorf("claim %s: record history: %w", id, err)
		}
		won.Fence = fence
		return nil
	})
	if err != nil {
		return Lease{}, err
	}
	return won, nil
}

// claimRefusal explains a lost compare-and-set from the row as the refused
// transaction saw it. The decision was already made by the UPDATE's WHERE
// clause; this only says why.
func claimRefusal(cur Job) *Refusal {
	if cur.State == Completed {
		return &Refusal{Op: "claim", Job: cur.ID, Reason: Finished}
	}
	return &Refusal{Op: "claim", Job: cur.ID, Reason: LeaseHeld, Holder: cur.Worker}
}
