package history

// This file holds the tests of what the checker's page shows of each
// operation, and of the split of a history by key.

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestThePageSaysWhyACallWasRefused: the label of an operation on the
// checker's page is how a learner finds the one with no place, so it
// names what the answer said: no answer at all, the holder a refusal
// names, the mark a refused write, claim of the mark or completion was
// measured against (a completion that names no mark shows none), or
// only the reason.
func TestThePageSaysWhyACallWasRefused(t *testing.T) {
	t.Parallel()
	answered := func(op Op, out Out) Op {
		op.Call, op.Return, op.Out = 10, 20, out
		return op
	}
	claim := Op{Kind: Claim, Key: "msg-1", Actor: "w2", Now: 40}
	write := Op{Kind: Write, Key: "k1", Actor: "w1", Token: 3}
	complete := Op{Kind: Complete, Key: "k1", Actor: "w1", Token: 3}
	for _, tc := range []struct {
		name string
		op   Op
		want string
	}{
		{"no answer", Op{Kind: Claim, Key: "msg-1", Actor: "w2", Now: 40, Call: 10, Out: Out{Result: Unknown}},
			"w2 claim msg-1 @40 -> no answer"},
		{"an answered call has one", answered(claim, Out{Result: OK, Token: 4, Expires: 90}),
			"w2 claim msg-1 @40 -> token 4 until 90"},
		{"a claim that renewed says so", answered(claim, Out{Result: OK, Token: 4, Expires: 90, Renewed: true}),
			"w2 claim msg-1 @40 -> renewed token 4 until 90"},
		{"held by", answered(claim, Out{Result: Refused, Reason: "lease_held", Holder: "w1"}),
			"w2 claim msg-1 @40 -> refused lease_held (held by w1)"},
		{"a refusal that names no holder", answered(claim, Out{Result: Refused, Reason: "terminal"}),
			"w2 claim msg-1 @40 -> refused terminal"},
		{"a write against the mark", answered(write, Out{Result: Refused, Reason: "stale_token", Mark: 5}),
			"w1 write k1 token 3 -> refused stale_token (mark 5)"},
		{"a write against no mark yet", answered(write, Out{Result: Refused, Reason: "stale_token"}),
			"w1 write k1 token 3 -> refused stale_token (mark 0)"},
		{"a claim of the mark against a higher one", answered(Op{Kind: ClaimMark, Key: "k1", Actor: "w1", Token: 3}, Out{Result: Refused, Reason: "stale_token", Mark: 5}),
			"w1 claim-mark k1 token 3 -> refused stale_token (mark 5)"},
		{"a claim of the mark against none yet", answered(Op{Kind: ClaimMark, Key: "k1", Actor: "w1", Token: 3}, Out{Result: Refused, Reason: "stale_token"}),
			"w1 claim-mark k1 token 3 -> refused stale_token (mark 0)"},
		{"a completion against the mark", answered(complete, Out{Result: Refused, Reason: "stale_token", Mark: 5}),
			"w1 complete k1 token 3 -> refused stale_token (mark 5)"},
		{"a completion that names no mark", answered(complete, Out{Result: Refused, Reason: "not_holder"}),
			"w1 complete k1 token 3 -> refused not_holder"},
		{"a claim's refusal shows no mark", answered(claim, Out{Result: Refused, Reason: "terminal", Mark: 2}),
			"w2 claim msg-1 @40 -> refused terminal"},
		{"an accepted write", answered(write, Out{Result: OK, Mark: 3}),
			"w1 write k1 token 3 -> ok"},
		{"a read that names a holder is no refusal", answered(Op{Kind: Read, Key: "msg-1"}, Out{Result: OK, State: "CLAIMED", Holder: "w1", Token: 4}),
			`read msg-1 -> CLAIMED holder "w1" token 4 mark 0 count 0 done false`},
	} {
		assert.Check(t, cmp.Equal(describe(tc.op), tc.want), tc.name)
	}
}

// TestAHistoryIsSplitIntoOneHistoryPerKey: porcupine checks each part
// alone, so every key gets exactly one part holding all of its
// operations and no other key's, and no part is empty.
func TestAHistoryIsSplitIntoOneHistoryPerKey(t *testing.T) {
	t.Parallel()
	op := func(key string, call int64) porcupine.Operation {
		return porcupine.Operation{Input: Op{Kind: Read, Key: key, Call: call}, Call: call, Return: call + 1}
	}
	ops := []porcupine.Operation{op("b", 1), op("a", 2), op("b", 3), op("c", 4), op("a", 5)}

	parts := byKey(ops)

	assert.Assert(t, cmp.Len(parts, 3), "one part per key: a, b and c")
	for i, want := range []struct {
		key   string
		calls []int64
	}{{"a", []int64{2, 5}}, {"b", []int64{1, 3}}, {"c", []int64{4}}} {
		var calls []int64
		for _, o := range parts[i] {
			assert.Check(t, cmp.Equal(o.Input.(Op).Key, want.key), "part %d holds only key %s's operations", i, want.key)
			calls = append(calls, o.Call)
		}
		assert.Check(t, cmp.DeepEqual(calls, want.calls), "part %d: key %s's operations, in their order", i, want.key)
	}
}
