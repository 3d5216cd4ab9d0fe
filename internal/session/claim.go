package session

// This file holds Claim: who runs a session now, and which incarnation of
// it they run.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Claim is what a successful claim hands its host. The host presents it,
// unchanged, to FinishSession: it is the host's proof of which run it
// belongs to.
type Claim struct {
	Session     string
	Host        string
	Incarnation int64
	ExpiresAt   int64 // when the session lease runs out
	// Renewed is true when the same host already held a live lease on the
	// session and only extended it: the same run, the same incarnation.
	Renewed bool
}

// Claim gives session id to host at the clock's current time.
//
//   - The first claim of a session creates it with incarnation 1.
//   - If host already holds a live lease on it, the lease is extended and
//     the incarnation kept (Renewed): renewing must not invalidate the
//     host's own callbacks that are still in flight.
//   - Otherwise host wins only if nobody holds the session or its lease has
//     expired, and the incarnation becomes one greater. That includes host
//     itself coming back after its own lease lapsed: a new run.
//
// The statements decide, in this order, each in its own WHERE clause: the
// renewal, then the takeover; the row is read only when neither took it,
// to tell a first claim from a refusal. While another host holds a live
// lease the claim is refused with SessionHeld. An empty host name is an
// error wrapping ErrNoHost, and writes nothing.
func (s *Store) Claim(ctx context.Context, id, host string) (Claim, error) {
	if host == "" {
		return Claim{}, fmt.Errorf("claim %s: %w", id, ErrNoHost)
	}
	now := s.clock.Now()
	c := Claim{Session: id, Host: host, ExpiresAt: clock.Expiry(now, s.leases.Session)}
	err := s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		// The host's own live lease: renewed, the same incarnation.
		err := tx.QueryRow(ctx, `UPDATE sessions SET lease_expires_at = ?
			WHERE id = ? AND host = ? AND lease_expires_at > ?
			RETURNING incarnation`,
			c.ExpiresAt, id, host, now).Scan(&c.Incarnation)
		if err == nil {
			c.Renewed = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("renew %s: %w", id, err)
		}
		// Nobody holds it, or its lease has ended: the next incarnation.
		err = tx.QueryRow(ctx, `UPDATE sessions
			SET host = ?, incarnation = incarnation + 1, lease_expires_at = ?
			WHERE id = ? AND (host IS NULL OR lease_expires_at <= ?)
			RETURNING incarnation`,
			host, c.ExpiresAt, id, now).Scan(&c.Incarnation)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("claim %s: %w", id, err)
		}
		// Neither statement took a row: another host holds a live lease,
		// or the session does not exist yet and this is its first claim.
		cur, ok, err := readSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if ok {
			return &Refusal{Op: "claim", Session: id, Reason: SessionHeld, Current: cur}
		}
		c.Incarnation = 1
		if _, err := tx.Exec(ctx, `INSERT INTO sessions(id, host, incarnation, lease_expires_at)
			VALUES (?, ?, ?, ?)`, id, host, c.Incarnation, c.ExpiresAt); err != nil {
			return fmt.Errorf("claim %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return Claim{}, err
	}
	return c, nil
}
