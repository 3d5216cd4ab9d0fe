package actor

// This file holds RunAssignment: the ordinary path every caller uses to run
// an assignment, which cannot go around the actor lease or the attempt.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Provider does an assignment's work and says how it ended: COMPLETED or
// BLOCKED. An error means FAILED. It is only ever invoked once the
// assignment is RUNNING under a current attempt.
type Provider func(ctx context.Context, a Assignment) (State, error)

// Run is what RunAssignment did.
type Run struct {
	Assignment string
	Actor      string
	Lease      Lease   // zero if the lease was refused
	Attempt    Attempt // zero if no attempt was acquired
	// State is the terminal state written, or, on a refusal, the last state
	// this run saw the assignment in.
	State   State
	Failure string // the provider's error, when State is FAILED
}

// RunAssignment runs assignment id for its actor, in order:
//
//  1. acquire the actor's lease (refused ActorLeaseHeld while any process
//     holds a live one);
//  2. acquire an execution attempt under that lease;
//  3. mark the assignment RUNNING, fenced by the attempt and its lease;
//  4. invoke provider;
//  5. write COMPLETED, BLOCKED or FAILED in a statement that checks the
//     attempt is still the current one (refused AttemptLost otherwise) and
//     that its lease is still this process's live lease (refused
//     ActorLeaseLost otherwise).
//
// A refusal at step 1, 2 or 3 returns before provider is invoked, and the
// assignment never reaches RUNNING. The lease is released on every path
// out after step 1, refusals and panics included; a lease another process
// has since taken over is left alone.
func (p *Process) RunAssignment(ctx context.Context, id string, provider Provider) (run Run, err error) {
	asg, err := p.Assignment(ctx, id)
	if err != nil {
		return Run{}, err
	}
	run = Run{Assignment: id, Actor: asg.Actor, State: asg.State}
	lease, err := p.AcquireLease(ctx, asg.Actor)
	if err != nil {
		return run, err
	}
	run.Lease = lease
	defer p.releaseAfterRun(ctx, lease, &err)
	att, err := p.AcquireAttempt(ctx, id, lease)
	if err != nil {
		return run, err
	}
	run.Attempt = att
	if err = p.markRunning(ctx, att); err != nil {
		return run, err
	}
	asg.State, run.State = Running, Running

	state, failure := invoke(ctx, provider, asg)
	if err = p.finish(ctx, att, state); err != nil {
		return run, err
	}
	run.State, run.Failure = state, failure
	return run, nil
}

// invoke calls the provider and turns what it said into a terminal state.
func invoke(ctx context.Context, provider Provider, asg Assignment) (State, string) {
	state, err := provider(ctx, asg)
	switch {
	case err != nil:
		return Failed, err.Error()
	case state != Completed && state != Blocked:
		return Failed, fmt.Sprintf("provider returned %q, not %s or %s", state, Completed, Blocked)
	}
	return state, ""
}

// releaseAfterRun releases the run's lease, joining any failure into *errp.
// A lease already taken over (ActorLeaseLost) is no longer ours to release.
// It runs even if ctx was cancelled: a cancelled run must not strand the
// actor.
func (p *Process) releaseAfterRun(ctx context.Context, l Lease, errp *error) {
	err := p.ReleaseLease(context.WithoutCancel(ctx), l)
	if reason, ok := ReasonOf(err); ok && reason == ActorLeaseLost {
		return
	}
	if err != nil {
		*errp = errors.Join(*errp, err)
	}
}

// markRunning moves the assignment to RUNNING if att is still its current
// attempt and the lease it descends from is still this process's live
// lease. A process that lost its lease after the attempt was recorded never
// reaches RUNNING, so its provider is never invoked.
func (p *Process) markRunning(ctx context.Context, att Attempt) error {
	now := p.clock.Now()
	return p.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE assignments SET state = 'RUNNING'
			WHERE id = ? AND state IN ('CREATED', 'RUNNING') AND attempt_token = ?
			  AND EXISTS (SELECT 1 FROM actor_leases AS l
			              WHERE l.actor = assignments.actor AND l.token = assignments.lease_token
			                AND l.holder = ? AND l.expires_at > ?)`,
			att.Assignment, att.Token,
			p.id, now)
		return p.decided(ctx, tx, res, err, "start", att, now)
	})
}

// finish is the terminal write. state lands only if, checked in the same
// UPDATE, att is still the assignment's current attempt and the lease it
// descends from is still this process's live lease.
func (p *Process) finish(ctx context.Context, att Attempt, state State) error {
	now := p.clock.Now()
	return p.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE assignments SET state = ?
			WHERE id = ? AND state = 'RUNNING' AND attempt_token = ?
			  AND EXISTS (SELECT 1 FROM actor_leases AS l
			              WHERE l.actor = assignments.actor AND l.token = assignments.lease_token
			                AND l.holder = ? AND l.expires_at > ?)`,
			string(state), att.Assignment, att.Token,
			p.id, now)
		if err := p.decided(ctx, tx, res, err, "finish", att, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE execution_attempts SET outcome = ? WHERE id = ?`, string(state), att.ID)
		if err != nil {
			return fmt.Errorf("record outcome of %s: %w", att.ID, err)
		}
		return nil
	})
}

// decided turns a fenced UPDATE's result into nil (it changed the row) or
// a refusal that names why it did not, judged from the rows as the same
// transaction sees them: AttemptLost if a newer attempt superseded att,
// otherwise ActorLeaseLost if att's lease is no longer this process's live
// lease, otherwise AssignmentFinished.
func (p *Process) decided(ctx context.Context, tx *sqlitedb.Tx, res sql.Result, err error, op string, att Attempt, now int64) error {
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, att.Assignment, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("%s %s: %w", op, att.Assignment, err)
	} else if n == 1 {
		return nil
	}
	asg, err := readAssignment(ctx, tx, att.Assignment)
	if err != nil {
		return err
	}
	cur, err := readLease(ctx, tx, asg.Actor)
	if err != nil {
		return err
	}
	r := &Refusal{Op: op, ID: att.Assignment}
	switch {
	case asg.AttemptToken != att.Token:
		r.Reason = AttemptLost
	case cur.Holder != p.id || cur.Token != asg.LeaseToken || cur.ExpiresAt <= now:
		r.Reason = ActorLeaseLost
	case asg.State.Terminal():
		r.Reason = AssignmentFinished
	default:
		return fmt.Errorf("%s %s: not written, yet every condition holds", op, att.Assignment)
	}
	return r
}
