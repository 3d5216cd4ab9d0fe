package lockservice

import (
	"context"
	"errors"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/etcdlock"
)

// TestCallsTheClusterNeverAnsweredAreErrors: a session, a put or a
// release whose call never reached the cluster (its context had ended)
// is an error, never a success; after a release that failed, the lock is
// still held, and nobody else gets it until the holder's lease ends.
func TestCallsTheClusterNeverAnsweredAreErrors(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	a := c.acquire(c.session(), "report")
	gone, cancel := context.WithCancel(t.Context())
	cancel()

	_, session := etcdlock.NewSession(gone, c.client(), 1)
	put := a.Put(gone, "/fencelab/report", "A")
	release := a.Release(gone)

	for name, err := range map[string]error{"session": session, "put": put, "release": release} {
		assert.Check(t, errors.Is(err, context.Canceled), "a %s the cluster never answered = %v; want the context's error", name, err)
	}
	_, err := etcdlock.TryAcquire(t.Context(), c.session(), "report")
	assert.ErrorIs(t, err, etcdlock.ErrHeld, "B took the lock after A's release had failed")
}
