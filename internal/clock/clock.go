// Package clock provides the logical time every lease in fencelab is judged
// by.
//
// Every test and every experiment but one holds a *Logical clock and
// moves it by hand, so "worker-b claims at minute 20" happens at minute 20
// every run, with no sleep and no flake. The one exception is the runner's
// torture run, whose point is real processes contending in real time: its
// leases are judged by Wall, the computer's clock in milliseconds (see
// wall.go). No chapter test reads the wall clock.
package clock

import "sync"

// Clock tells the current logical time. The unit (minutes, ticks) is the
// caller's; only the order of the values matters.
type Clock interface {
	Now() int64
}

// Logical is a Clock that moves only when told to. Its zero value reads 0
// and is ready to use; it is safe for concurrent use.
type Logical struct {
	mu  sync.Mutex
	now int64
}

var _ Clock = (*Logical)(nil)

// Now returns the current logical time.
func (c *Logical) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t. Logical time may be set backwards: a test that
// replays a timeline is allowed to.
func (c *Logical) Set(t int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
