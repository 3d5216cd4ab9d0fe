package mailbox

// This file holds the refusals: a claim, completion or dead-letter that lost
// is not an error to log but an answer to switch on.

import (
	"errors"
	"fmt"
)

// Reason says why the mailbox refused a request.
type Reason string

// The reasons a request is refused.
const (
	// NotClaimable: the message is not NEW and its claim cannot be taken
	// over (it never expires, or the message is DONE or DEAD).
	NotClaimable Reason = "not_claimable"
	// LeaseHeld: another owner holds an unexpired lease.
	LeaseHeld Reason = "lease_held"
	// StaleToken: the presented token is not the message's current token,
	// or the message is no longer claimed under it.
	StaleToken Reason = "stale_token"
	// Terminal: the message is DONE or DEAD; nothing may move it again.
	Terminal Reason = "terminal"
)

// Refusal is the error returned when a request lost. Callers branch on
// Reason (see ReasonOf); Holder names the current owner for LeaseHeld.
type Refusal struct {
	Op     string // "claim", "complete", "dead-letter"
	ID     string
	Reason Reason
	Holder string
}

func (r *Refusal) Error() string {
	if r.Holder != "" {
		return fmt.Sprintf("mailbox: %s %s refused: %s (held by %s)", r.Op, r.ID, r.Reason, r.Holder)
	}
	return fmt.Sprintf("mailbox: %s %s refused: %s", r.Op, r.ID, r.Reason)
}

// ReasonOf returns the reason err is a refusal, and false if it is not one.
func ReasonOf(err error) (Reason, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason, true
	}
	return "", false
}
