package fencinglab

// The chapters draw the pictures of a sound queue and destination, which
// chapters/internal/pictures holds whole. A learner who weakens one draws
// them again, and the picture must then show what the stores answered.
// These tests draw cases a weakened mechanism could produce, made from a
// real case by changing its answers.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/runner/timeline"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// soundCase runs case name with worker A in-process.
func soundCase(t *testing.T, name string) CaseReport {
	t.Helper()
	r, err := RunCase(t.Context(), t.TempDir(), name, int64(defaultUnits), worker.StartInProcess)
	assert.NilError(t, err)
	return r
}

// draw returns the picture of the one case c, checked against
// testdata/NAME.svg (go test -update writes it).
func draw(t *testing.T, c CaseReport, name string) string {
	t.Helper()
	var b bytes.Buffer
	assert.NilError(t, (&experiment{}).SVG(&b, Report{Command: "fencing", Units: int64(defaultUnits), Cases: []CaseReport{c}}))
	golden.Assert(t, b.String(), name+".svg")
	return b.String()
}

// TestPictureOfAWeakenedQueue: a finish ends its worker's lease bar only
// if it came inside the lease. A finish accepted after the lease ended
// (a queue that checks no lease) leaves the bar at the expiry; one on the
// lease's last tick is outside it, one a tick earlier inside.
func TestPictureOfAWeakenedQueue(t *testing.T) {
	sound := soundCase(t, "finish-only")
	for _, tc := range []struct {
		name   string
		weaken func(*CaseReport)
		want   []string // what the picture must say
		not    []string // what it must not
	}{{
		name:   "a-finishes-after-its-lease",
		weaken: func(c *CaseReport) { c.OldWorkerFinish.Result = "completed" },
		want:   []string{"A&apos;s lease on JOB-1: fence 1 from tick 0, expiring at tick 5<"},
	}, {
		name:   "b-finishes-on-its-lease-end",
		weaken: func(c *CaseReport) { c.QueueClaims[1].ExpiresAt = c.NewWorkerFinish.Tick },
		want:   []string{"B&apos;s lease on JOB-1: fence 2 from tick 5, expiring at tick 6<"},
	}, {
		name:   "b-finishes-a-tick-before-its-lease-end",
		weaken: func(c *CaseReport) { c.QueueClaims[1].ExpiresAt = c.NewWorkerFinish.Tick + 1 },
		want:   []string{"B&apos;s lease on JOB-1: fence 2 from tick 5, expiring at tick 7; ended by its finish at tick 6<"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := sound
			c.QueueClaims = append([]Claim(nil), sound.QueueClaims...)
			tc.weaken(&c)
			doc := draw(t, c, tc.name)
			for _, w := range tc.want {
				assert.Check(t, strings.Contains(doc, w), "the picture of a run where %s does not say %q", tc.name, w)
			}
		})
	}
}

// TestADrawingOfSomethingElseIsAnError: asked to draw, as text or as a
// picture, a result that is not a fencing report, the experiment says so
// and writes nothing.
func TestADrawingOfSomethingElseIsAnError(t *testing.T) {
	e := &experiment{}
	for name, draw := range map[string]func(*bytes.Buffer) error{
		"text": func(b *bytes.Buffer) error { return e.Text(b, CaseReport{}) },
		"svg":  func(b *bytes.Buffer) error { return e.SVG(b, CaseReport{}) },
	} {
		var b bytes.Buffer
		err := draw(&b)
		assert.Check(t, err != nil, "the %s drawing of a case report, not a run's report, said nothing", name)
		assert.Check(t, b.Len() == 0, "the %s drawing of a result it cannot draw wrote %q", name, b.String())
	}
}

// TestOnlyACallThatChangedNothingIsDrawnAsARing: the ring means
// "accepted, nothing new written". In fence-and-receipt and
// fence-rollback, B's first replay raises the mark from 1 to 2: it is
// drawn as accepted, with the change in its words; a replay that
// changed nothing keeps the ring.
func TestOnlyACallThatChangedNothingIsDrawnAsARing(t *testing.T) {
	raised := 0
	for _, name := range []string{"fence-and-receipt", "fence-rollback"} {
		for _, at := range soundCase(t, name).Attempts {
			outcome, words := attemptMark(at)
			changed := at.After != at.Before
			ring := outcome == timeline.NoEffect
			assert.Check(t, ring == (at.Result == gate.Replayed && !changed),
				"%s: %s's call at tick %d (%s, %s → %s) drawn with the ring: %v; the ring is only for an accepted call that changed nothing",
				name, at.Worker, at.Tick, at.Result, stateCell(at.Before), stateCell(at.After), ring)
			if at.Result == gate.Replayed && at.After.HighestFence > at.Before.HighestFence {
				raised++
				assert.Check(t, outcome == timeline.Accepted, "%s: the replay that raised the mark from %d to %d is drawn as accepted, something written",
					name, at.Before.HighestFence, at.After.HighestFence)
				assert.Check(t, strings.Contains(words, fmt.Sprintf("mark %d → %d", at.Before.HighestFence, at.After.HighestFence)),
					"%s: the replay's words %q say it raised the mark", name, words)
			}
		}
	}
	assert.Check(t, raised == 2, "the sound cases have %d replays that raise the mark; want 2, one in each case", raised)
}
