package etcdlock

// This file holds the holder's side of a write to another store: look at
// the session first, then write with the token. The look is the holder's
// belief and nothing more; the token is what the store can check.

import (
	"context"
	"fmt"
)

// Check returns an error wrapping ErrSessionEnded if the lock's session
// has ended as far as this client knows, and nil otherwise. A nil answer
// is only a belief:
// the cluster may already have given the lock to someone else (the lease
// is measured by its leader), and anything can happen between Check and
// the write that follows it.
func (l *Lock) Check() error {
	select {
	case <-l.session.Done():
		return fmt.Errorf("etcdlock: session of lease %x: %w", int64(l.session.Lease()), ErrSessionEnded)
	default:
		return nil
	}
}

// Fenced calls write with the lock's token, unless the session has
// already ended (an error wrapping ErrSessionEnded, and write is not
// called). It stops the writes a holder can know are late; the ones it
// cannot know are for the store to refuse, by the token.
func (l *Lock) Fenced(ctx context.Context, write func(ctx context.Context, token int64) error) error {
	if err := l.Check(); err != nil {
		return err
	}
	return write(ctx, l.token)
}
