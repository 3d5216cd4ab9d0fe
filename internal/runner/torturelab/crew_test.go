package torturelab

import (
	"context"
	"errors"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestACrewDriverAnswersPausesAndStillSeesTheEnd: with a pause answerer
// (an etcd run's), the driver hands every request a worker sends to it,
// the worker hears back, and the driver still sees the worker end: one
// that ends by itself, not killed, fails the run.
func TestACrewDriverAnswersPausesAndStillSeesTheEnd(t *testing.T) {
	t.Parallel()
	asker := func(ctx context.Context, a workerArgs, link *worker.Link) error {
		for _, ms := range []int64{7, 11} {
			if err := link.Send(PauseRequest{PauseMs: ms}); err != nil {
				return err
			}
			var resumed PauseRequest
			if err := link.Recv(&resumed); err != nil {
				return err
			}
		}
		return nil // ends by itself, with status 0, once both were answered
	}
	plan := twoIdleSlots()
	plan.processes, plan.Kills = 1, nil
	c := newCoordinator(plan, t.TempDir(), inProcess(asker, nil))
	asked := make(chan PauseRequest, 2)
	c.pause = func(p *worker.Process, req PauseRequest) {
		asked <- req
		assert.Check(t, p.Send(req))
	}
	assert.NilError(t, c.start(t.Context()))
	t.Cleanup(c.crew.Stop)
	stillOpen := driveRules{
		every: 1,
		read:  func(context.Context) (progress, error) { return progress{open: 1}, nil },
		ended: "every message ended",
		stalled: func(int, time.Duration) string {
			return "stalled"
		},
	}

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err := c.crewDriver.drive(ctx, stillOpen)

	assert.ErrorContains(t, err, "worker-a (pid")
	assert.ErrorContains(t, err, "ended by itself during the run (exit status 0)",
		"a worker whose pauses were all answered ends cleanly; the driver must still see it end")
	assert.Check(t, cmp.Len(asked, 2), "pause requests handed to the answerer")
	assert.Check(t, cmp.Equal((<-asked).PauseMs, int64(7)))
	assert.Check(t, cmp.Equal((<-asked).PauseMs, int64(11)))
}

// TestACrewDriverRunsWhatFollowsEachReading: the rules' after step sees
// every reading, in the reading's own order, and an error from it fails
// the run (an etcd run's member kill that cannot restart its member).
func TestACrewDriverRunsWhatFollowsEachReading(t *testing.T) {
	t.Parallel()
	plan := twoIdleSlots()
	plan.Kills = nil
	c, _ := startedRun(t, plan, 1, inProcess(idle, nil))
	readings := 0
	var seen []int
	broken := errors.New("member-2 did not restart")
	rules := driveRules{
		every: 2,
		read: func(context.Context) (progress, error) {
			readings++
			return progress{count: readings, open: 1}, nil
		},
		after: func(now progress) error {
			seen = append(seen, now.count)
			if now.count == 3 {
				return broken
			}
			return nil
		},
		ended:   "every message ended",
		stalled: func(int, time.Duration) string { return "stalled" },
	}

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err := c.crewDriver.drive(ctx, rules)

	assert.ErrorIs(t, err, broken)
	assert.Check(t, cmp.DeepEqual(seen, []int{1, 2, 3}), "readings the after step saw")
}
