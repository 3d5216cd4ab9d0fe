package worker_test

import (
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestQuietWorkerLearnsItsParentIsDone: a worker that is never sent a
// request (it works on its own, as the torture run's workers do) learns
// through PeerClosed that its parent closed the link, and exits cleanly,
// promptly, as a separate process and in this one alike.
func TestQuietWorkerLearnsItsParentIsDone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		start worker.Starter
	}{{"process", worker.Start}, {"in-process", worker.StartInProcess}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.start(t.Context(), quiet)
			assert.NilError(t, err)
			defer p.Stop()
			began := time.Now()

			exit, err := p.Wait()

			assert.NilError(t, err)
			assert.Equal(t, exit, worker.Exit{Code: 0, Normal: true}, "how a quiet worker ends once its parent is done")
			assert.Check(t, time.Since(began) < 10*time.Second, "the quiet worker took %v to notice its parent was done", time.Since(began))
		})
	}
}

// TestParentHearsTheEndOfAWorkerThatReturned: when a worker's body
// returns without a word, its parent's next Recv says the worker's end is
// closed (io.EOF) as soon as it returns, as a separate process and in
// this one alike; it never waits out the reply timeout as if the worker
// were still busy.
func TestParentHearsTheEndOfAWorkerThatReturned(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		start worker.Starter
	}{{"process", worker.Start}, {"in-process", worker.StartInProcess}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.start(t.Context(), touch, filepath.Join(t.TempDir(), "touched"))
			assert.NilError(t, err)
			defer p.Stop()

			var v struct{}
			err = p.Link.Recv(&v)

			assert.Check(t, errors.Is(err, io.EOF), "what the parent of a worker that returned hears: %v", err)
		})
	}
}
