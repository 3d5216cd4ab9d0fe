package actor

// This file holds the actor lease: which process may act for an actor now.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// Lease is an actor lease as its holder was handed it. The holder presents
// it, unchanged, to AcquireAttempt and ReleaseLease.
type Lease struct {
	Actor     string
	Holder    string // the identity of the process that acquired it
	Token     int64  // its fencing token, from the shared counter
	ExpiresAt int64
}

// AcquireLease makes this process the one that acts for actor, at the
// clock's current time, until the lease expires or is released.
//
// It is one compare-and-set inside one BEGIN IMMEDIATE transaction: the
// UPDATE wins only if nobody holds the lease or the holder's lease has
// expired. The winner gets a fresh token from the shared counter, strictly
// greater than every token minted before it, of any kind. While another
// process (or this one) holds a live lease, the acquire is refused with
// ActorLeaseHeld and burns no token.
func (p *Process) AcquireLease(ctx context.Context, actor string) (Lease, error) {
	now := p.clock.Now()
	l := Lease{Actor: actor, Holder: p.id, ExpiresAt: clock.Expiry(now, p.lease)}
	err := p.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO actor_leases(actor) VALUES (?)
			ON CONFLICT(actor) DO NOTHING`, actor); err != nil {
			return fmt.Errorf("acquire lease on %s: %w", actor, err)
		}
		tok, err := token.Mint(ctx, tx, token.ActorLease)
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE actor_leases SET holder = ?, token = ?, expires_at = ?
			WHERE actor = ? AND (holder IS NULL OR expires_at <= ?)`,
			p.id, tok, l.ExpiresAt,
			actor, now)
		if err != nil {
			return fmt.Errorf("acquire lease on %s: %w", actor, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("acquire lease on %s: %w", actor, err)
		} else if n != 1 {
			cur, err := readLease(ctx, tx, actor)
			if err != nil {
				return err
			}
			return &Refusal{Op: "acquire lease", ID: actor, Reason: ActorLeaseHeld, Holder: cur.Holder}
		}
		l.Token = tok
		return nil
	})
	if err != nil {
		return Lease{}, err
	}
	return l, nil
}

// ReleaseLease gives up l, so the actor's next acquire succeeds at once
// instead of waiting for the lease to expire. Only the process holding the
// lease releases it, and only under the lease's own token: a lease that was
// already released or taken over is refused with ActorLeaseLost, and so is
// another process's lease, whose token anyone can read. A newer holder's
// lease is never touched.
func (p *Process) ReleaseLease(ctx context.Context, l Lease) error {
	return p.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE actor_leases SET holder = NULL, expires_at = NULL
			WHERE actor = ? AND token = ? AND holder = ?`, l.Actor, l.Token, p.id)
		if err != nil {
			return fmt.Errorf("release lease on %s: %w", l.Actor, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("release lease on %s: %w", l.Actor, err)
		} else if n != 1 {
			return &Refusal{Op: "release lease", ID: l.Actor, Reason: ActorLeaseLost}
		}
		return nil
	})
}

// CurrentLease returns actor's lease as committed: Holder is "" when nobody
// holds it (Token is then the last lease's token, or 0). It is for
// reporting. Presenting its result as if this process had acquired it is
// exactly the mistake fencing exists to catch: a token read from the row
// always matches the row.
func (p *Process) CurrentLease(ctx context.Context, actor string) (Lease, error) {
	return readLease(ctx, p.db, actor)
}

func readLease(ctx context.Context, q sqlitedb.Querier, actor string) (Lease, error) {
	var (
		holder  sql.NullString
		tok     sql.NullInt64
		expires sql.NullInt64
	)
	err := q.QueryRow(ctx, `SELECT holder, token, expires_at FROM actor_leases WHERE actor = ?`, actor).
		Scan(&holder, &tok, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Lease{Actor: actor}, nil
	}
	if err != nil {
		return Lease{}, fmt.Errorf("read lease on %s: %w", actor, err)
	}
	return Lease{Actor: actor, Holder: holder.String, Token: tok.Int64, ExpiresAt: expires.Int64}, nil
}
