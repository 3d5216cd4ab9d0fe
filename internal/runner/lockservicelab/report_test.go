package lockservicelab

import (
	"encoding/json"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// call is one call to the destination as a case records it: who, with
// which token, whether it was a claim of the mark, and the answer.
type call struct {
	worker   string
	token    int64
	claim    bool
	accepted bool
}

// play records grants and calls on a fresh case, keeping the
// destination's mark and effect count as the store would, and judges it.
func play(fence bool, granted []int64, calls []call) *CaseResult {
	c := newCase("late-write-before-successor", minTTL)
	for i, tok := range granted {
		c.granted(string(rune('A'+i)), tok)
	}
	var after Committed
	for _, x := range calls {
		rep := LockReply{Result: Refused, Reason: ReasonStaleToken}
		op := ""
		if x.claim {
			op = claimMarkOp
		}
		if x.accepted {
			rep = LockReply{Result: Accepted}
			after.Mark = max(after.Mark, x.token)
			if !x.claim {
				after.Writes++
			}
		}
		c.wrote(x.worker, x.token, op, rep, after)
	}
	c.judge(fence)
	return c
}

// TestVerdictNamesTheGuaranteeThatHeld: a case is safe when mutual
// exclusion held; ordered when only token order did, under a destination
// that fences; unsafe otherwise. The late write before the successor's
// first gives two effects in token order: ordered with the fence on,
// unsafe with it off, where nothing but luck kept the order.
func TestVerdictNamesTheGuaranteeThatHeld(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		fence      bool
		calls      []call
		guarantees Guarantees
		verdict    string
	}{
		{"late-write-fenced", true, []call{{"A", 2, false, true}, {"B", 3, false, true}}, Guarantees{TokenOrder: true}, Ordered},
		{"late-write-unfenced", false, []call{{"A", 2, false, true}, {"B", 3, false, true}}, Guarantees{TokenOrder: true}, Unsafe},
		{"claim-first", true, []call{{"B", 3, true, true}, {"A", 2, false, false}, {"B", 3, false, true}},
			Guarantees{TokenOrder: true, MutualExclusion: true}, Safe},
		{"claim-first-unfenced", false, []call{{"B", 3, true, true}, {"A", 2, false, true}, {"B", 3, false, true}},
			Guarantees{}, Unsafe},
		{"stale-after-newer", false, []call{{"B", 3, false, true}, {"A", 2, false, true}}, Guarantees{}, Unsafe},
		{"stale-refused", true, []call{{"B", 3, false, true}, {"A", 2, false, false}},
			Guarantees{TokenOrder: true, MutualExclusion: true}, Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := play(tc.fence, []int64{2, 3}, tc.calls)
			assert.Check(t, cmp.Equal(c.Guarantees, tc.guarantees), "guarantees that held")
			assert.Check(t, cmp.Equal(c.Verdict, tc.verdict), "verdict with the fence on = %v", tc.fence)
		})
	}
}

// TestClaimOfTheMarkIsNoEffect: B's claim is accepted and moves the mark,
// but counts as no effect: with B's write after it, one effect, no double.
func TestClaimOfTheMarkIsNoEffect(t *testing.T) {
	t.Parallel()
	c := play(true, []int64{2, 3}, []call{{"B", 3, true, true}, {"B", 3, false, true}})
	assert.Check(t, cmp.Equal(c.DoubleEffects, 0), "double effects of a claim and one write")
	assert.Check(t, cmp.Equal(c.StaleWritesAccepted, 0), "stale writes of the newest holder")
}

// TestEveryCountIsReportedUnderItsName: a case whose destination accepts
// everything breaks each promise a different number of times, and its
// JSON reports each count, by name, as that number: double_effects 3
// (four writes took effect), stale_writes_accepted 2 (A's writes with 2
// and 3 after B was granted 5), below_mark_writes_accepted 4 (A's two
// writes and two claims under the mark 5). A count dropped, renamed or
// swapped with another fails here, though a safe run reports zeros for
// all of them; and the JSON has no count this test does not know.
func TestEveryCountIsReportedUnderItsName(t *testing.T) {
	t.Parallel()
	c := play(false, []int64{2, 5}, []call{
		{"B", 5, false, true},
		{"A", 2, false, true},
		{"A", 3, false, true},
		{"A", 4, true, true},
		{"B", 5, false, true},
		{"A", 1, true, true},
	})
	data, err := json.Marshal(c)
	assert.NilError(t, err)
	var got map[string]any
	assert.NilError(t, json.Unmarshal(data, &got))

	want := map[string]float64{
		"double_effects":             3,
		"stale_writes_accepted":      2,
		"below_mark_writes_accepted": 4,
	}
	for name, n := range want {
		assert.Check(t, got[name] == n, "case JSON %s = %v; want %v", name, got[name], n)
	}
	notCounts := map[string]bool{"ttl_seconds": true} // a setting of the case, not something it broke
	for name, v := range got {
		if _, isNumber := v.(float64); isNumber && !notCounts[name] {
			_, known := want[name]
			assert.Check(t, known, "case JSON has a count %q this test does not make non-zero; give it a value of its own", name)
		}
	}
	assert.Check(t, cmp.Equal(c.Guarantees, Guarantees{}), "guarantees of a case that broke both")
	assert.Check(t, cmp.Equal(c.Verdict, Unsafe), "verdict of a case that broke both")
}
