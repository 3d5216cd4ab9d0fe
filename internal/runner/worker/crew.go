package worker

// This file holds Crew: several workers playing one role, as the race
// modes start them, and as a story that kills workers on purpose needs
// them: kill one, learn it died, put a fresh one in its place.

import (
	"context"
	"errors"
	"fmt"
)

// Crew is a numbered set of workers playing one role, each with its own
// arguments.
type Crew struct {
	ctx     context.Context
	start   Starter
	role    Role
	members []*Process
}

// StartCrew starts, with start, one worker playing r for each entry of
// args, with those arguments, numbered in that order. If one fails to
// start, the ones already started are stopped. The workers are killed if
// ctx is cancelled; callers must call Stop or Wait on every path.
func StartCrew(ctx context.Context, start Starter, r Role, args [][]string) (*Crew, error) {
	c := &Crew{ctx: ctx, start: start, role: r}
	for _, a := range args {
		p, err := start(ctx, r, a...)
		if err != nil {
			c.Stop()
			return nil, err
		}
		c.members = append(c.members, p)
	}
	return c, nil
}

// Len is the number of workers in the crew.
func (c *Crew) Len() int { return len(c.members) }

// Member returns worker i, the one now in that place.
func (c *Crew) Member(i int) *Process { return c.members[i] }

// Kill kills worker i at once, as kill -9 does, and returns how it ended.
// Its place stays empty of a running worker until Replace fills it.
func (c *Crew) Kill(i int) Exit { return c.members[i].Kill() }

// Replace puts a fresh worker, started with args, in place i. The worker
// that was there is stopped first if it is still running.
func (c *Crew) Replace(i int, args ...string) (*Process, error) {
	c.members[i].Stop()
	p, err := c.start(c.ctx, c.role, args...)
	if err != nil {
		return nil, fmt.Errorf("replace worker %d: %w", i, err)
	}
	c.members[i] = p
	return p, nil
}

// Wait lets every worker finish what it was asked and exit by itself, and
// returns an error for each that did not exit cleanly.
func (c *Crew) Wait() error {
	var errs []error
	for _, p := range c.members {
		errs = append(errs, p.WaitClean())
	}
	return errors.Join(errs...)
}

// Stop stops every worker that is still running. It is safe to call after
// Wait and more than once.
func (c *Crew) Stop() {
	for _, p := range c.members {
		p.Stop()
	}
}
