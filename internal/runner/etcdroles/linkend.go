package etcdroles

// This file holds the rule every role here follows: a process whose
// runner is done with it, or gone, ends at once, whatever it is doing.
// The runner's end of the link closes when it is done with the worker
// and when it dies (the kernel closes a dead process's pipes), so each
// role runs its etcd calls, its client and its member under a context
// that the link's end cancels; each call has a deadline of its own as
// well. A worker waiting on a cluster whose members died with the runner
// would otherwise wait for as long as its calls retry.

import (
	"context"
	"fmt"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/runner/etcdmember"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// untilLinkEnds returns a copy of ctx that is also cancelled once the
// parent has closed its end of link and every message it sent before has
// been received, and the function that releases it.
func untilLinkEnds(ctx context.Context, link *worker.Link) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-link.PeerClosed():
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// cleanupWait is how long an acquisition that failed may go on cleaning
// up once its context has ended: a delete or two, answered in
// milliseconds by a cluster that is there.
const cleanupWait = 2 * time.Second

// acquire is etcdlock.Acquire with a deadline that holds to the end. etcd's
// Mutex.Lock, when its wait for the lock fails (ctx ended), deletes the
// waiter's key under the client's own context, which has no deadline:
// against members that are gone that delete is retried for as long as
// the client lives. So once ctx has ended, the call is given cleanupWait
// more, and then abandon is called, which must end the client's own
// context (the delete gives up at once), and acquire returns an error
// without waiting for the call. The client is of no use afterwards.
func acquire(ctx context.Context, s *concurrency.Session, name string, abandon func()) (*etcdlock.Lock, error) {
	type result struct {
		lock *etcdlock.Lock
		err  error
	}
	got := make(chan result, 1)
	go func() {
		l, err := etcdlock.Acquire(ctx, s, name)
		got <- result{l, err}
	}()
	select {
	case r := <-got:
		return r.lock, r.err
	case <-ctx.Done():
	}
	t := time.NewTimer(cleanupWait)
	defer t.Stop()
	select {
	case r := <-got:
		return r.lock, r.err
	case <-t.C:
		abandon()
		return nil, fmt.Errorf("etcdlock: acquire %s: no clean-up within %v of the end of the wait: %w", name, cleanupWait, ctx.Err())
	}
}

// startMember is etcdmember.Start, except that it returns as soon as ctx
// ends, with no member and no error (nobody is left to tell): a member
// still waiting to join its cluster when its parent goes would otherwise
// spend seconds stopping gracefully, for peers that are gone too. The
// process's exit ends what Start left running.
func startMember(ctx context.Context, cfg etcdmember.Config) (*etcdmember.Member, error) {
	type result struct {
		m   *etcdmember.Member
		err error
	}
	got := make(chan result, 1)
	go func() {
		m, err := etcdmember.Start(ctx, cfg)
		got <- result{m, err}
	}()
	select {
	case r := <-got:
		return r.m, r.err
	case <-ctx.Done():
		return nil, nil
	}
}

// memberCloseWait bounds how long a member stopping spends on a graceful
// stop. A member whose parent is done with it or gone is one the runner
// kills (kill -9) or would have: nobody waits on its stop, which, with
// the other members gone, spends seconds trying to hand on a leadership
// nobody can take.
const memberCloseWait = time.Second

// closeWithin stops m, waiting at most wait for it; the process's exit
// ends what is left.
func closeWithin(m *etcdmember.Member, wait time.Duration) {
	done := make(chan struct{})
	go func() {
		m.Close()
		close(done)
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
