package actor

// This file holds the refusals: a lease, an attempt or a terminal write
// that lost is an answer with a reason callers switch on.

import (
	"errors"
	"fmt"
)

// Reason says why a request was refused.
type Reason string

// The reasons a request is refused.
const (
	// ActorLeaseHeld: another process holds a live lease on the actor.
	ActorLeaseHeld Reason = "actor_lease_held"
	// ActorLeaseLost: the lease is not the actor's current live lease held
	// by this process: it was released, it expired, another process took
	// the actor over, it is another process's lease, or it is a lease on a
	// different actor. Every write an attempt makes checks this too.
	ActorLeaseLost Reason = "actor_lease_lost"
	// ExecutionAttemptHeld: the assignment already has a current attempt
	// descended from the same lease.
	ExecutionAttemptHeld Reason = "execution_attempt_held"
	// AssignmentFinished: the assignment is COMPLETED, BLOCKED or FAILED.
	AssignmentFinished Reason = "assignment_finished"
	// AttemptLost: the attempt is no longer the assignment's current one (a
	// newer attempt superseded it); its writes are refused.
	AttemptLost Reason = "attempt_lost"
)

// Refusal is the error returned when a request lost. Callers branch on
// Reason (see ReasonOf).
type Refusal struct {
	Op     string // "acquire lease", "release lease", "acquire attempt", "start", "finish"
	ID     string // the actor or the assignment
	Reason Reason
	Holder string // the holding process, for ActorLeaseHeld
}

func (r *Refusal) Error() string {
	if r.Holder != "" {
		return fmt.Sprintf("actor: %s %s refused: %s (held by process %s)", r.Op, r.ID, r.Reason, r.Holder)
	}
	return fmt.Sprintf("actor: %s %s refused: %s", r.Op, r.ID, r.Reason)
}

// ReasonOf returns the reason err is a refusal, and false if it is not one.
func ReasonOf(err error) (Reason, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason, true
	}
	return "", false
}
