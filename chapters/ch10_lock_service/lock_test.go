package lockservice

// These tests are about the lock alone: who holds it, and which token the
// holder gets.

import (
	"context"
	"errors"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/etcdlock"
)

// TestOneSessionHoldsTheLockAtATime: while worker A's session holds the
// lock, worker B's attempt is refused at once with ErrHeld.
func TestOneSessionHoldsTheLockAtATime(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	c.acquire(c.session(), "job-1")

	_, err := etcdlock.TryAcquire(t.Context(), c.session(), "job-1")

	assert.ErrorIs(t, err, etcdlock.ErrHeld, "B took the lock while A held it")
}

// TestNextHolderGetsAGreaterToken: once A releases the lock, B gets it,
// with a token greater than A's: revisions only grow.
func TestNextHolderGetsAGreaterToken(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	a := c.acquire(c.session(), "job-1")
	assert.NilError(t, a.Release(t.Context()))

	b, err := etcdlock.TryAcquire(t.Context(), c.session(), "job-1")

	assert.NilError(t, err, "B was refused a lock A had released")
	assert.Check(t, b.Token() > a.Token(), "B's token %d; want greater than A's %d", b.Token(), a.Token())
}

// TestTokenIsTheRevisionTheHoldersKeyWasCreatedAt: B queues behind A and
// gets the lock when A releases it. B's token is the revision at which
// the cluster created B's own lock key, when B queued, not the cluster's
// revision when B was handed the lock (A's release came after, and is a
// revision of its own).
func TestTokenIsTheRevisionTheHoldersKeyWasCreatedAt(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	a := c.acquire(c.session(), "job-1")
	b := queueBehind(t, c, a, "job-1")

	kv, err := c.client().Get(t.Context(), b.Key())
	assert.NilError(t, err)
	assert.Assert(t, len(kv.Kvs) == 1, "B's lock key is gone")
	assert.Equal(t, b.Token(), kv.Kvs[0].CreateRevision,
		"B's token; want the create revision of B's own lock key (the cluster is at revision %d now)", kv.Header.Revision)
}

// queueBehind starts B's acquire of name while a holds it, waits until
// B's key is queued, releases a, and returns B's lock once B has it.
func queueBehind(t *testing.T, c *cluster, a *etcdlock.Lock, name string) *etcdlock.Lock {
	t.Helper()
	s := c.session()
	type got struct {
		l   *etcdlock.Lock
		err error
	}
	done := make(chan got, 1)
	go func() {
		l, err := etcdlock.Acquire(t.Context(), s, name)
		done <- got{l, err}
	}()
	waitForKeys(t, c, etcdlock.Prefix+name+"/", 2)
	assert.NilError(t, a.Release(t.Context()))
	select {
	case g := <-done:
		assert.NilError(t, g.err, "B never got the lock A released")
		return g.l
	case <-time.After(10 * time.Second):
		t.Fatalf("B did not get the lock within 10 s of A's release")
		return nil
	}
}

// waitForKeys waits, for a bounded time, until n keys live under prefix:
// the holder's and the waiters'.
func waitForKeys(t *testing.T, c *cluster, prefix string, n int) {
	t.Helper()
	cli := c.client()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	w := cli.Watch(ctx, prefix, clientv3.WithPrefix())
	for {
		resp, err := cli.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
		assert.NilError(t, err, "waiting for %d lock keys under %s", n, prefix)
		if resp.Count >= int64(n) {
			return
		}
		select {
		case <-w:
		case <-ctx.Done():
			t.Fatalf("fewer than %d lock keys under %s after 10 s", n, prefix)
		}
	}
}

// TestWaiterWhoseLeaseEndedGetsNoLock: B queues behind A, and B's lease
// ends while B waits. When A releases the lock, B's acquire looks at B's
// own key once more before it hands over a lock, finds it gone, and
// returns an error: B is never told it holds a lock no lease backs.
func TestWaiterWhoseLeaseEndedGetsNoLock(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	a := c.acquire(c.session(), "job-1")
	sb := c.session()
	type got struct {
		l   *etcdlock.Lock
		err error
	}
	done := make(chan got, 1)
	go func() {
		l, err := etcdlock.Acquire(t.Context(), sb, "job-1")
		done <- got{l, err}
	}()
	waitForKeys(t, c, etcdlock.Prefix+"job-1/", 2)
	revoke(t, c, sb)
	assert.NilError(t, a.Release(t.Context()))

	var g got
	select {
	case g = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("B's acquire had not returned 10 s after A's release")
	}

	assert.Check(t, g.l == nil, "B was handed the lock after its lease had ended while it waited")
	// etcd's Mutex.Lock looks first, since etcd issue 11456
	// (ErrSessionExpired); held looks again as it reads the token
	// (ErrSessionEnded), for a lease that ends between the two.
	assert.Check(t, errors.Is(g.err, concurrency.ErrSessionExpired) || errors.Is(g.err, etcdlock.ErrSessionEnded),
		"B's acquire after its lease ended while it waited = %v; want an error saying its session ended", g.err)
}

// TestAcquireGivesUpWhenItsContextEnds: B waits for a lock A never
// releases; when B's context ends, B gets an error and no lock, and A
// still holds it.
func TestAcquireGivesUpWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	c.acquire(c.session(), "job-1")
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()

	l, err := etcdlock.Acquire(ctx, c.session(), "job-1")

	assert.Check(t, errors.Is(err, context.DeadlineExceeded), "B's acquire = %v; want it to give up with its context", err)
	assert.Check(t, l == nil, "B got a lock A still holds")
	_, err = etcdlock.TryAcquire(t.Context(), c.session(), "job-1")
	assert.ErrorIs(t, err, etcdlock.ErrHeld, "A lost the lock because B gave up waiting")
}
