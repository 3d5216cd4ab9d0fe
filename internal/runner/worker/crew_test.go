package worker_test

import (
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestCrewReplacesAKilledWorker: what a story that kills workers on
// purpose needs. One of three workers is killed as kill -9 does; its
// parent learns it died and how; the others still answer; a fresh worker,
// another process, takes its place with new arguments; and the crew ends
// cleanly.
func TestCrewReplacesAKilledWorker(t *testing.T) {
	t.Parallel()
	crew, err := worker.StartCrew(t.Context(), worker.Start, echo, [][]string{{"w1"}, {"w2"}, {"w3"}})
	assert.NilError(t, err)
	defer crew.Stop()
	assert.Equal(t, crew.Len(), 3)
	killed := crew.Member(1)

	exit := crew.Kill(1)

	assert.Equal(t, exit, worker.Exit{Code: -1, Normal: false}, "how the killed worker ended")
	select {
	case <-killed.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done was not closed for a worker that was killed")
	}
	for _, i := range []int{0, 2} {
		got, err := worker.Ask[message](crew.Member(i), message{N: i})
		assert.NilError(t, err, "worker %d after its neighbour was killed", i)
		assert.Equal(t, got.N, i)
	}
	_, err = worker.Ask[message](killed, message{N: 1})
	assert.ErrorContains(t, err, "was killed", "asking the killed worker")

	fresh, err := crew.Replace(1, "w2-again")
	assert.NilError(t, err)
	assert.Check(t, fresh.Pid != killed.Pid, "the replacement must be a new process, got pid %d again", fresh.Pid)
	got, err := worker.Ask[message](crew.Member(1), message{N: 1})
	assert.NilError(t, err)
	assert.DeepEqual(t, got.Args, []string{"w2-again"})

	assert.NilError(t, crew.Wait(), "every worker in place exits cleanly")
}
