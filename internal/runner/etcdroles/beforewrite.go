package etcdroles

// This file holds the two steps a lock worker can take short of a write:
// a look at its own session, which is all a holder can know of its lease,
// and a claim of the destination's mark with its token, which makes the
// destination refuse every holder before it from then on.

import (
	"context"
	"errors"
	"time"

	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
)

// errNoLock is a step that needs the lock asked of a worker without one.
var errNoLock = errors.New("lock worker: a step under the lock without a lock")

// check answers whether the worker's own client believes its session is
// alive, after waiting up to wait for the session to end. The client
// learns of the end only from its keep-alives: an answer saying the lease
// is gone, or no answer for a whole lease.
func (w *lockWorker) check(ctx context.Context, wait time.Duration) (lockservicelab.LockReply, error) {
	if w.lock == nil {
		return lockservicelab.LockReply{}, errNoLock
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-w.session.Done():
		case <-t.C:
		case <-ctx.Done():
			return lockservicelab.LockReply{}, ctx.Err()
		}
	}
	if w.lock.Check() != nil {
		return lockservicelab.LockReply{Result: lockservicelab.Ended}, nil
	}
	return lockservicelab.LockReply{Result: lockservicelab.Alive}, nil
}

// claimMark claims the destination's mark on key with the lock's token,
// through Fenced: a session the client knows has ended claims nothing.
func (w *lockWorker) claimMark(ctx context.Context, key string) (lockservicelab.LockReply, error) {
	if w.lock == nil {
		return lockservicelab.LockReply{}, errNoLock
	}
	err := w.lock.Fenced(ctx, func(ctx context.Context, token int64) error {
		return w.store.ClaimMark(ctx, key, token, w.name)
	})
	if errors.Is(err, etcdlock.ErrSessionEnded) {
		return lockservicelab.LockReply{Result: lockservicelab.Refused, Reason: lockservicelab.ReasonSessionEnded}, nil
	}
	return outcome(err)
}
