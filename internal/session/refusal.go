package session

// This file holds the refusals: a claim or a finish that lost is an answer
// with a reason callers switch on, not an error to parse.

import (
	"errors"
	"fmt"
)

// Reason says why a claim or a finish was refused.
type Reason string

// The reasons FinishSession refuses a completion, checked in this order.
const (
	// NotClaimed: nobody holds the session: it was never claimed, or its
	// current run already finished and released it.
	NotClaimed Reason = "not_claimed"
	// StaleIncarnation: the presented incarnation is not the session's
	// current one; the callback belongs to an older run.
	StaleIncarnation Reason = "stale_incarnation"
	// WrongHost: the incarnation is current but another host holds it.
	WrongHost Reason = "wrong_host"
	// SessionLeaseExpired: the claim is current but its session lease ran
	// out, and nobody has taken the session over yet.
	SessionLeaseExpired Reason = "session_lease_expired"
	// HostLeaseExpired: the host itself is no longer known to be alive: it
	// never renewed its host lease, or let it run out.
	HostLeaseExpired Reason = "host_lease_expired"
)

// SessionHeld is why Claim refuses: another host holds a live session
// lease.
const SessionHeld Reason = "session_held"

// Refusal is the error returned when a claim or a finish lost. Callers
// branch on Reason (see ReasonOf).
type Refusal struct {
	Op      string // "claim" or "finish"
	Session string
	Reason  Reason
	// Current is the session as the refused transaction saw it: its holder
	// and incarnation, for the caller's diagnostics.
	Current Session
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("session: %s %s refused: %s (held by %q, incarnation %d)",
		r.Op, r.Session, r.Reason, r.Current.Host, r.Current.Incarnation)
}

// ReasonOf returns the reason err is a refusal, and false if it is not one.
func ReasonOf(err error) (Reason, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason, true
	}
	return "", false
}
