package fencedstore

// This file holds the refusals: a write the store turned away is an answer
// to switch on, not an error to log.

import (
	"errors"
	"fmt"
)

// Reason says why the store refused a call.
type Reason string

// The reasons a call is refused.
const (
	// StaleToken: the presented token is below the key's committed mark.
	StaleToken Reason = "stale_token"
	// Terminal: the key is already completed; nothing completes it again.
	Terminal Reason = "terminal"
)

// ErrUnknownKey is returned, wrapped, by a call on a key the store was
// never given (see Add).
var ErrUnknownKey = errors.New("fencedstore: unknown key")

// Refusal is the error of a call the store refused. Callers branch on
// Reason (see ReasonOf); Mark is the committed mark the call was judged
// against.
type Refusal struct {
	Op     string // "write", "complete" or "claim"
	Key    string
	Token  int64
	Reason Reason
	Mark   int64
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("fencedstore: %s %s with token %d refused: %s (mark %d)", r.Op, r.Key, r.Token, r.Reason, r.Mark)
}

// ReasonOf returns the reason err is a refusal, and false if it is not one.
func ReasonOf(err error) (Reason, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason, true
	}
	return "", false
}
