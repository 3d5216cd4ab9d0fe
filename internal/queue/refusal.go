package queue

// This file holds the queue's refusals: a claim or finish that lost is an
// answer callers switch on, not an error to log.

import (
	"errors"
	"fmt"
)

// Reason says why the queue refused a request.
type Reason string

// The reasons a request is refused.
const (
	// LeaseHeld: another lease on the job has not expired yet.
	LeaseHeld Reason = "lease_held"
	// Finished: the job is completed; nobody may claim it again.
	Finished Reason = "finished"
	// LeaseLost: the caller's worker and fence are no longer the job's
	// running lease. It was taken over after expiry, or the job is already
	// completed. The caller must not act as the job's owner any more.
	LeaseLost Reason = "lease_lost"
)

// Refusal is the error returned when a request lost. Callers branch on
// Reason (see ReasonOf); Holder names the job's current worker.
type Refusal struct {
	Op     string // "claim" or "finish"
	Job    string
	Reason Reason
	Holder string
}

func (r *Refusal) Error() string {
	if r.Holder != "" {
		return fmt.Sprintf("queue: %s %s refused: %s (held by %s)", r.Op, r.Job, r.Reason, r.Holder)
	}
	return fmt.Sprintf("queue: %s %s refused: %s", r.Op, r.Job, r.Reason)
}

// ReasonOf returns the reason err is a refusal, and false if it is not one.
func ReasonOf(err error) (Reason, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason, true
	}
	return "", false
}
