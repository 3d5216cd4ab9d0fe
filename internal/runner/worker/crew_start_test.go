package worker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// failThird starts workers in this process, and fails on the third.
func failThird(started *[]*worker.Process) worker.Starter {
	return func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		if len(*started) == 2 {
			return nil, errors.New("no third worker today")
		}
		p, err := worker.StartInProcess(ctx, r, args...)
		if err == nil {
			*started = append(*started, p)
		}
		return p, err
	}
}

// ended reports whether p ended within a few seconds.
func ended(p *worker.Process) bool {
	select {
	case <-p.Done():
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

// TestACrewThatCannotStartLeavesNoWorkerRunning: when the third of three
// workers fails to start, StartCrew reports that failure, and the two it
// had started are stopped: no worker outlives a crew that never was.
func TestACrewThatCannotStartLeavesNoWorkerRunning(t *testing.T) {
	t.Parallel()
	var started []*worker.Process
	crew, err := worker.StartCrew(t.Context(), failThird(&started), echo, [][]string{{"w1"}, {"w2"}, {"w3"}})
	assert.ErrorContains(t, err, "no third worker today", "StartCrew must report the worker that failed to start")
	assert.Assert(t, crew == nil, "a crew that could not start is no crew")
	assert.Equal(t, len(started), 2)
	for i, p := range started {
		assert.Assert(t, ended(p), "worker %d of a crew that could not start is still running", i+1)
		assert.Equal(t, p.Exit(), worker.Exit{Code: -1}, "worker %d was stopped, not left to finish", i+1)
	}
}

// TestReplaceStopsTheWorkerItReplaces: a worker still running in the
// place Replace fills is stopped first, so two workers never play one
// place.
func TestReplaceStopsTheWorkerItReplaces(t *testing.T) {
	t.Parallel()
	crew, err := worker.StartCrew(t.Context(), worker.StartInProcess, echo, [][]string{{"w1"}})
	assert.NilError(t, err)
	defer crew.Stop()
	old := crew.Member(0)

	fresh, err := crew.Replace(0, "w1-again")
	assert.NilError(t, err)

	assert.Assert(t, ended(old), "the replaced worker is still running beside its replacement")
	got, err := worker.Ask[message](fresh, message{N: 1})
	assert.NilError(t, err)
	assert.DeepEqual(t, got.Args, []string{"w1-again"})
}

// TestAReplacementThatCannotStartIsAnError: when the fresh worker for a
// place fails to start, Replace says so, naming the place and why; it
// never reports a replacement that is not running.
func TestAReplacementThatCannotStartIsAnError(t *testing.T) {
	t.Parallel()
	var started []*worker.Process
	crew, err := worker.StartCrew(t.Context(), failThird(&started), echo, [][]string{{"w1"}, {"w2"}})
	assert.NilError(t, err)
	defer crew.Stop()

	p, err := crew.Replace(0, "w1-again")

	assert.ErrorContains(t, err, "replace worker 0: no third worker today")
	assert.Check(t, p == nil, "Replace returned a worker that never started")
}
