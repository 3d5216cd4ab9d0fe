// Package counter is the mechanism of the drill fixture: a counter with a
// ceiling, small enough that each weakening of it is obvious.
package counter

import "errors"

// ErrFull is returned by Add when the counter is at its ceiling.
var ErrFull = errors.New("counter: at its ceiling")

// Counter counts up to a ceiling.
type Counter struct {
	n, ceiling int
}

// New returns a counter at zero with the given ceiling.
func New(ceiling int) *Counter { return &Counter{ceiling: ceiling} }

// Add counts one more, or returns ErrFull at the ceiling.
func (c *Counter) Add() error {
	if c.n >= c.ceiling {
		return ErrFull
	}
	c.n++
	return nil
}

// Value returns the count.
func (c *Counter) Value() int { return c.n }

// Label names the counter for people; no rule depends on it.
func (c *Counter) Label() string { return "counter" }

// Durable reports whether counts survive a restart; the durability test
// skips itself when they do not.
func Durable() bool { return true }

// Settled reports whether the counter has finished counting.
func (c *Counter) Settled() bool { return true }
