package actor

// This file holds the execution attempt: which run of one assignment is
// current, bound to the actor-lease token it descended from.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// Attempt is an execution attempt as its process was handed it.
type Attempt struct {
	ID         string // att_<hex>
	Assignment string
	Actor      string
	Process    string // the identity of the process that started it
	LeaseToken int64  // the actor-lease token it descended from
	Token      int64  // its own fencing token, from the shared counter
}

// AcquireAttempt starts an attempt on assignment under lease l.
//
// The caller cannot present an arbitrary lease: the UPDATE that records the
// attempt re-reads the actor's current lease, inside the same transaction,
// and requires that it is l (same actor, same token, not expired) and that
// this process holds it. A lease that was released, expired or taken over
// is refused with ActorLeaseLost, and so is another process's lease: its
// token is a small integer anyone can read from the ledger, and knowing it
// does not make the lease yours.
//
// An assignment has one current attempt. A second attempt descended from
// the same lease is refused with ExecutionAttemptHeld. An attempt descended
// from an older lease is stale, and a new lease's attempt supersedes it (an
// assignment takeover); the stale attempt's terminal write is then refused.
// A finished assignment is refused with AssignmentFinished.
func (p *Process) AcquireAttempt(ctx context.Context, assignment string, l Lease) (Attempt, error) {
	now := p.clock.Now()
	a := Attempt{ID: newAttemptID(), Assignment: assignment, Actor: l.Actor, Process: p.id, LeaseToken: l.Token}
	err := p.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		tok, err := token.Mint(ctx, tx, token.ExecutionAttempt)
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE assignments
			SET attempt_id = ?, attempt_token = ?, lease_token = ?
			WHERE id = ? AND actor = ?
			  AND state IN ('CREATED', 'RUNNING')
			  AND (attempt_token IS NULL OR lease_token <> ?)
			  AND EXISTS (SELECT 1 FROM actor_leases
			              WHERE actor = ? AND token = ? AND holder = ? AND expires_at > ?)`,
			a.ID, tok, l.Token,
			assignment, l.Actor,
			l.Token,
			l.Actor, l.Token, p.id, now)
		if err != nil {
			return fmt.Errorf("acquire attempt on %s: %w", assignment, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("acquire attempt on %s: %w", assignment, err)
		} else if n != 1 {
			return p.explainAttempt(ctx, tx, assignment, l, now)
		}
		a.Token = tok
		_, err = tx.Exec(ctx, `INSERT INTO execution_attempts
			(id, assignment, actor, process, lease_token, token, started_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.Assignment, a.Actor, a.Process, a.LeaseToken, a.Token, now)
		if err != nil {
			return fmt.Errorf("record attempt on %s: %w", assignment, err)
		}
		return nil
	})
	if err != nil {
		return Attempt{}, err
	}
	return a, nil
}

// explainAttempt says why the attempt UPDATE changed nothing, from the rows
// as the same transaction sees them.
func (p *Process) explainAttempt(ctx context.Context, tx *sqlitedb.Tx, assignment string, l Lease, now int64) error {
	asg, err := readAssignment(ctx, tx, assignment)
	if err != nil {
		return err
	}
	r := &Refusal{Op: "acquire attempt", ID: assignment}
	cur, err := readLease(ctx, tx, asg.Actor)
	if err != nil {
		return err
	}
	switch {
	case asg.State.Terminal():
		r.Reason = AssignmentFinished
	case l.Actor != asg.Actor || cur.Holder != p.id || cur.Token != l.Token || cur.ExpiresAt <= now:
		r.Reason = ActorLeaseLost
	case asg.AttemptID != "" && asg.LeaseToken == l.Token:
		r.Reason = ExecutionAttemptHeld
	default:
		return fmt.Errorf("acquire attempt on %s: not recorded, yet every condition holds", assignment)
	}
	return r
}

// newAttemptID returns "att_" and 16 random hex digits.
func newAttemptID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails; see crypto/rand.Read
	return "att_" + hex.EncodeToString(b[:])
}
