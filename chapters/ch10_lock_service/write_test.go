package lockservice

// These tests are about writes made under the lock: to a store in another
// place, fenced by the token, and inside etcd itself, conditional on the
// lock key.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/fencedstore/fencedstoretest"
)

// revoke ends lock l's lease from another client, as the cluster's
// leader does when the lease runs out: l's key is deleted at once, and
// l's holder is not told.
func revoke(t *testing.T, c *cluster, s leased) {
	t.Helper()
	_, err := c.client().Revoke(t.Context(), s.Lease())
	assert.NilError(t, err, "set-up: revoke the holder's lease")
}

// TestStaleHolderIsRefusedByTheStore: A's lease ends while A is not
// looking; B takes the lock with a greater token and writes. A's write
// with its old token reaches the store afterwards and is refused
// stale_token; the store keeps B's write alone.
func TestStaleHolderIsRefusedByTheStore(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	d := fencedstoretest.New(t, "report")
	sa := c.session()
	a := c.acquire(sa, "report")
	revoke(t, c, sa)
	b := c.acquire(c.session(), "report")
	assert.NilError(t, d.Store(fencedstore.Fence).Write(t.Context(), "report", b.Token(), "B"))

	err := d.Store(fencedstore.Fence).Write(t.Context(), "report", a.Token(), "A")

	reason, _ := fencedstore.ReasonOf(err)
	assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken),
		"A's write with token %d after B's with token %d = %v; want refused stale_token", a.Token(), b.Token(), err)
	assert.Check(t, cmp.Equal(d.Get("report").Writes, int64(1)), "the store took A's stale write as well as B's")
}

// TestEndedSessionWritesNothing: once the holder's own session has ended
// (its client knows), Fenced refuses with ErrSessionEnded and does not
// call the write at all: the store never hears of it.
func TestEndedSessionWritesNothing(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	d := fencedstoretest.New(t, "report")
	s := c.session()
	a := c.acquire(s, "report")
	assert.NilError(t, s.Close(), "set-up: end A's session")

	err := a.Fenced(t.Context(), func(ctx context.Context, token int64) error {
		return d.Store(fencedstore.Fence).Write(ctx, "report", token, "A")
	})

	assert.ErrorIs(t, err, etcdlock.ErrSessionEnded, "A wrote after its session had ended")
	assert.Check(t, cmp.Equal(d.Get("report").Writes, int64(0)),
		"the store took a write from a session that had ended; with nobody newer to fence it, only the holder's own check stops it")
}

// TestLiveSessionWritesWithItsToken: while the session lives, Fenced
// hands the write the lock's token, and the store takes it.
func TestLiveSessionWritesWithItsToken(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	d := fencedstoretest.New(t, "report")
	a := c.acquire(c.session(), "report")

	err := a.Fenced(t.Context(), func(ctx context.Context, token int64) error {
		return d.Store(fencedstore.Fence).Write(ctx, "report", token, "A")
	})

	assert.NilError(t, err, "A's write while its session lives")
	assert.Check(t, cmp.Equal(d.Get("report").Mark, a.Token()), "the store's mark after A's write; want A's token")
}

// TestLapsedHolderCannotWriteInsideEtcd: A's lease ends and B takes the
// lock. A's conditional put compares A's lock key with A's token inside
// the cluster, finds it gone, and writes nothing: the value stays B's.
func TestLapsedHolderCannotWriteInsideEtcd(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	sa := c.session()
	a := c.acquire(sa, "report")
	revoke(t, c, sa)
	b := c.acquire(c.session(), "report")
	assert.NilError(t, b.Put(t.Context(), "/fencelab/report", "B"))

	err := a.Put(t.Context(), "/fencelab/report", "A")

	assert.ErrorIs(t, err, etcdlock.ErrNotHolder, "A's put after its lease ended")
	got, gerr := c.client().Get(t.Context(), "/fencelab/report")
	assert.NilError(t, gerr)
	assert.Check(t, len(got.Kvs) == 1 && string(got.Kvs[0].Value) == "B", "the value after A's late put: %v; want B's", got.Kvs)
}

// TestWaiterWritesInsideEtcdUnderItsComparison: B queued behind A and got
// the lock on A's release. B's conditional put compares B's key with B's
// token and succeeds: the token is the revision the comparison checks.
func TestWaiterWritesInsideEtcdUnderItsComparison(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	a := c.acquire(c.session(), "report")
	b := queueBehind(t, c, a, "report")

	err := b.Put(t.Context(), "/fencelab/report", "B")

	assert.NilError(t, err, "the holder B (token %d) could not write under its own comparison", b.Token())
}
