package mutate

// An excused mutant killed once is judged again: a judge that failed by
// chance under load must not undo a written excuse.

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestAKillOfAnExcusedMutantIsBelievedOnlyWhenItHappensTwice: a kill is
// judged a second time and stands only if the second judging kills too;
// a second judging that lets the mutant live wins, and the log says which
// judge failed once. A mutant that lived is not judged again.
func TestAKillOfAnExcusedMutantIsBelievedOnlyWhenItHappensTwice(t *testing.T) {
	killed := judgement{Verdict: Killed, KilledBy: "chapters/ch10_lock_service: TestScripts/lockservice", Seconds: 3}
	lived := judgement{Verdict: Survived, Seconds: 5}
	for _, tc := range []struct {
		name      string
		first     judgement
		second    judgement
		want      Verdict
		judged    int
		chanceLog bool
	}{
		{"killed, then lived", killed, lived, Survived, 1, true},
		{"killed twice", killed, killed, Killed, 1, false},
		{"lived", lived, killed, Survived, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			judged := 0
			var log []string
			got := secondOpinion("pkg:f:op:1", tc.first, func() judgement { judged++; return tc.second },
				func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) })
			assert.Check(t, is.Equal(got.Verdict, tc.want), "the verdict after a second opinion")
			assert.Check(t, is.Equal(judged, tc.judged), "times judged again")
			if tc.chanceLog {
				assert.Assert(t, is.Len(log, 1))
				assert.Check(t, is.Contains(log[0], "pkg:f:op:1"))
				assert.Check(t, is.Contains(log[0], tc.first.KilledBy), "the log names the judge that failed once")
				assert.Check(t, is.Equal(got.Seconds, 8.0), "both judgings' time counts")
			} else {
				assert.Check(t, is.Len(log, 0))
			}
		})
	}
}
