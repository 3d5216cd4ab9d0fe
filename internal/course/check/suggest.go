package check

// This file turns a "never failing" test into a next step. A weakening is
// graded by the tests its tests: line names, so a new chapter test that
// does catch a weakening still reads as never failing until a line names
// it. Before telling a contributor to write a new weakening, the check
// runs each never-failing test under each weakening of its chapter it
// has built, and names the ones it fails under: the fix is then one word
// on that weakening's tests: line.

import (
	"context"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// suggestWeakenings fills FailsUnder for every test of rep.NeverFailing:
// the weakenings of queue, of its chapter and in the shared build, under
// which it fails.
func suggestWeakenings(ctx context.Context, r *variant.Runner, queue []job, shared *sharedBuild, rep *Report) {
	for i := range rep.NeverFailing {
		ct := &rep.NeverFailing[i]
		for _, j := range queue {
			if j.w.Chapter != ct.Chapter {
				continue
			}
			num, bin, ok := shared.switched(j.w)
			if !ok {
				continue
			}
			pr, err := r.RunBinary(ctx, bin, num, r.TestTimeout(), "-test.run="+variant.RunPattern([]string{ct.Test}))
			if err != nil || ctx.Err() != nil {
				return // a hint, never a verdict: without it the report still stands
			}
			if t, ok := pr.Tests[ct.Test]; ok && t.Action == "fail" {
				ct.FailsUnder = append(ct.FailsUnder, j.w.Name)
			}
		}
	}
}
