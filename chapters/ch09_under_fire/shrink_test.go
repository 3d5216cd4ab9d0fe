package underfire

// This file holds shrinking: cutting a long sequence that makes the
// mechanism and its model disagree down to a short one that still does.

import (
	"slices"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// shrinkBudget bounds how many replays one shrink may spend. Each replay
// starts from fresh database files, so a long sequence on a slow disk could
// otherwise take minutes; the sequence found so far still disagrees.
const shrinkBudget = 400

// shrink returns a sub-sequence of steps that still disagrees, as short as
// it finds: it tries leaving out halves, then quarters, and so on down to
// single steps, keeping every cut after which disagrees still holds.
// minimal is true when no single step of the result can be left out (the
// only sense in which it is the shortest); false when shrinkBudget ran out
// first. disagrees must hold for steps itself, and must replay from scratch
// each time: the steps are a script, not a state.
func shrink[S any](steps []S, disagrees func([]S) bool) (shorter []S, minimal bool) {
	tries := 0
	for chunk := max(len(steps)/2, 1); ; {
		cut := false
		for i := 0; i+chunk <= len(steps); {
			if tries++; tries > shrinkBudget {
				return steps, false
			}
			shorter := slices.Concat(steps[:i], steps[i+chunk:])
			if disagrees(shorter) {
				steps, cut = shorter, true
				continue // the same position now holds the next steps
			}
			i += chunk
		}
		switch {
		case cut:
			// Something went: try this size again on what is left.
		case chunk == 1:
			return steps, true
		default:
			chunk /= 2
		}
	}
}

// timed is a step that happens at a logical time.
type timed[S any] interface {
	time() int64
	shifted(by int64) S
}

// startAtZero moves a shrunk sequence's times so the earliest is 0, if it
// still disagrees then: "t=0, t=15" reads better than "t=164, t=179". It
// leaves the sequence as it is when the absolute times matter.
func startAtZero[S timed[S]](steps []S, disagrees func([]S) bool) []S {
	if len(steps) == 0 {
		return steps
	}
	earliest := steps[0].time()
	for _, s := range steps {
		earliest = min(earliest, s.time())
	}
	if earliest == 0 {
		return steps
	}
	moved := make([]S, len(steps))
	for i, s := range steps {
		moved[i] = s.shifted(-earliest)
	}
	if disagrees(moved) {
		return moved
	}
	return steps
}

// TestShrinkLeavesOnlyTheStepsThatMatter: a made-up disagreement that
// needs a claim and, later, the same owner's completion, buried among 60
// other steps, shrinks to exactly those two, in their order.
func TestShrinkLeavesOnlyTheStepsThatMatter(t *testing.T) {
	t.Parallel()
	var steps []string
	for i := range 60 {
		steps = append(steps, "noise")
		switch i {
		case 17:
			steps = append(steps, "claim")
		case 41:
			steps = append(steps, "complete")
		}
	}
	runs := 0
	disagrees := func(s []string) bool {
		runs++
		c := slices.Index(s, "claim")
		return c >= 0 && slices.Contains(s[c:], "complete")
	}

	got, minimal := shrink(steps, disagrees)

	assert.Check(t, cmp.DeepEqual(got, []string{"claim", "complete"}),
		"shrinking 62 steps where only a claim and a later completion matter")
	assert.Check(t, minimal, "shrink says its result is not minimal; no single step of it can be left out")
	assert.Check(t, runs < 200, "shrinking took %d replays; want it to cut by halves, not step by step", runs)
}
