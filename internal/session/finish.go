package session

// This file holds FinishSession: the terminal write of a session's run,
// allowed only to the current run of the current host while both of its
// leases are live.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// FinishSession records result as the completion of the run c belongs to,
// and releases the session so its next run can be claimed.
//
// The completion is allowed if and only if, at the clock's current time:
//
//	stored.host        == c.Host
//	stored.incarnation == c.Incarnation
//	session lease      >  now
//	host lease         >  now
//
// All four are checked by the INSERT that writes the completion, inside one
// BEGIN IMMEDIATE transaction: nothing can take the session over between
// the check and the write. The caller presents the claim it was handed; the
// current incarnation is never read back and trusted.
//
// A refused finish returns a *Refusal whose Reason is, in this order of
// precedence, NotClaimed, StaleIncarnation, WrongHost, SessionLeaseExpired
// or HostLeaseExpired, and changes nothing.
func (s *Store) FinishSession(ctx context.Context, c Claim, result string) error {
	now := s.clock.Now()
	return s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `INSERT INTO session_completions
				(session_id, host, incarnation, result, finished_at)
			SELECT s.id, ?, ?, ?, ?
			FROM sessions AS s JOIN hosts AS h ON h.host = s.host
			WHERE s.id = ?
			  AND s.host = ?
			  AND s.incarnation = ?
			  AND s.lease_expires_at > ?
			  AND h.lease_expires_at > ?`,
			c.Host, c.Incarnation, result, now,
			c.Session, c.Host, c.Incarnation, now, now)
		if err != nil {
			return fmt.Errorf("finish %s: %w", c.Session, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("finish %s: %w", c.Session, err)
		} else if n != 1 {
			return explainFinish(ctx, tx, c, now)
		}
		return release(ctx, tx, c)
	})
}

// release frees the session after its run finished, keeping the
// incarnation so the next claim counts on from it.
func release(ctx context.Context, tx *sqlitedb.Tx, c Claim) error {
	_, err := tx.Exec(ctx, `UPDATE sessions SET host = NULL, lease_expires_at = NULL
		WHERE id = ? AND host = ? AND incarnation = ?`, c.Session, c.Host, c.Incarnation)
	if err != nil {
		return fmt.Errorf("release %s: %w", c.Session, err)
	}
	return nil
}

// explainFinish says why a finish the INSERT refused was refused, from the
// rows as the same transaction sees them. The decision was already made by
// the INSERT's WHERE clause; this only names it.
func explainFinish(ctx context.Context, tx *sqlitedb.Tx, c Claim, now int64) error {
	rows, err := readFinishRows(ctx, tx, c)
	if err != nil {
		return err
	}
	if r := rows.refusal(c, now); r != nil {
		return r
	}
	return fmt.Errorf("finish %s: completion not written, yet every condition holds", c.Session)
}

// finishRows are the two rows a finish is judged by.
type finishRows struct {
	session       Session
	claimed       bool  // the session exists and somebody holds it
	hostExpiresAt int64 // the presenting host's lease
	hostKnown     bool  // the presenting host ever renewed a lease
}

// readFinishRows reads the session c names and the lease of the host that
// presents it, through q.
func readFinishRows(ctx context.Context, q sqlitedb.Querier, c Claim) (finishRows, error) {
	var r finishRows
	cur, ok, err := readSession(ctx, q, c.Session)
	if err != nil {
		return r, err
	}
	r.session, r.claimed = cur, ok && cur.Host != ""
	r.hostExpiresAt, r.hostKnown, err = readHostLease(ctx, q, c.Host)
	return r, err
}

// refusal judges c against the rows at time now: nil if the finish is
// allowed, otherwise the first reason it is not.
func (r finishRows) refusal(c Claim, now int64) *Refusal {
	ref := &Refusal{Op: "finish", Session: c.Session, Current: r.session}
	switch {
	case !r.claimed:
		ref.Reason = NotClaimed
	case r.session.Incarnation != c.Incarnation:
		ref.Reason = StaleIncarnation
	case r.session.Host != c.Host:
		ref.Reason = WrongHost
	case r.session.LeaseExpiresAt <= now:
		ref.Reason = SessionLeaseExpired
	case !r.hostKnown || r.hostExpiresAt <= now:
		ref.Reason = HostLeaseExpired
	default:
		return nil
	}
	return ref
}
