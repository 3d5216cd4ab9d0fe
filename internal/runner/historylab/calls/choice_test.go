package calls

// This file holds the tests of which call a worker makes next: the mix
// of kinds, the keys, and the tokens it presents. The experiment finds
// a mistake only if the workers make every kind of call, on the same few
// keys, with tokens that are stale, current and ahead.

import (
	"math/rand/v2"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/history"
)

// draws is how many calls a mix is measured on: enough that a share one
// point off its target is far outside the tolerance's chance.
const draws = 20000

// shares draws calls from c with a fixed seed and returns the share of
// each kind, in percent, and every call drawn.
func shares(c Caller, v *View) (map[history.Kind]float64, []history.Op) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[history.Kind]int{}
	var ops []history.Op
	for range draws {
		op := c.Next(r, v)
		counts[op.Kind]++
		ops = append(ops, op)
	}
	out := map[history.Kind]float64{}
	for k, n := range counts {
		out[k] = 100 * float64(n) / draws
	}
	return out, ops
}

// near checks that got is within 1.5 points of want, for what.
func near(t *testing.T, got map[history.Kind]float64, want map[history.Kind]float64, what string) {
	t.Helper()
	assert.Check(t, cmp.Len(got, len(want)), "%s: kinds of call made: %v", what, got)
	for k, w := range want {
		assert.Check(t, got[k] > w-1.5 && got[k] < w+1.5, "%s: %s calls are %.1f%% of all; want %.0f%%", what, k, got[k], w)
	}
}

func keys(n int) []string {
	var ks []string
	for i := range n {
		ks = append(ks, string(rune('a'+i)))
	}
	return ks
}

// TestEachMechanismsWorkersMakeEveryKindOfCall: the mailbox's and the
// queue's workers claim (40%), end the work (40%: complete or finish)
// and read (20%); the store's write (60%), complete (5%) and read (35%);
// the gate's apply (75%) and read (25%).
func TestEachMechanismsWorkersMakeEveryKindOfCall(t *testing.T) {
	t.Parallel()
	v := NewView(keys(10))
	got, _ := shares(&mailboxCaller{}, v)
	near(t, got, map[history.Kind]float64{history.Claim: 40, history.Complete: 40, history.Read: 20}, "mailbox")
	got, _ = shares(&queueCaller{}, v)
	near(t, got, map[history.Kind]float64{history.Claim: 40, history.Finish: 40, history.Read: 20}, "queue")
	got, _ = shares(&storeCaller{}, v)
	near(t, got, map[history.Kind]float64{history.Write: 60, history.Complete: 5, history.Read: 35}, "store")
	got, _ = shares(&gateCaller{}, v)
	near(t, got, map[history.Kind]float64{history.Apply: 75, history.Read: 25}, "gate")
}

// TestTheGatesWorkersApplyFewOperationsOfOneOrTwoUnits: the gate's
// workers apply OP-1 to OP-8, each of 1 or 2 units, so that receipts
// are replayed and conflict; a read is of the one resource.
func TestTheGatesWorkersApplyFewOperationsOfOneOrTwoUnits(t *testing.T) {
	t.Parallel()
	_, ops := shares(&gateCaller{}, NewView(nil))
	names, units := map[string]bool{}, map[int64]bool{}
	for _, op := range ops {
		if op.Kind == history.Read {
			assert.Check(t, cmp.Equal(op.Key, "gate"), "a read's key")
			continue
		}
		names[op.Key], units[op.Units] = true, true
	}
	want := map[string]bool{"OP-1": true, "OP-2": true, "OP-3": true, "OP-4": true, "OP-5": true, "OP-6": true, "OP-7": true, "OP-8": true}
	assert.Check(t, cmp.DeepEqual(names, want), "the operations applied")
	assert.Check(t, cmp.DeepEqual(units, map[int64]bool{1: true, 2: true}), "the units applied")
}

// TestWorkersCallOnTheFirstThreeKeysNotSeenFinished: the workers move
// along the keys together, so that their calls meet on the same rows:
// each call is on one of the first three keys its worker has not seen
// finished, each of the three in turn; once it has seen every key
// finished, on the last. The store's workers call on its three keys.
func TestWorkersCallOnTheFirstThreeKeysNotSeenFinished(t *testing.T) {
	t.Parallel()
	v := NewView(keys(6))
	v.finished["a"], v.finished["c"] = true, true
	_, ops := shares(&mailboxCaller{}, v)
	seen := map[string]bool{}
	for _, op := range ops {
		seen[op.Key] = true
	}
	assert.Check(t, cmp.DeepEqual(seen, map[string]bool{"b": true, "d": true, "e": true}), "keys called on with a and c seen finished")

	for _, k := range keys(6) {
		v.finished[k] = true
	}
	_, ops = shares(&queueCaller{}, v)
	for _, op := range ops[:100] {
		assert.Check(t, cmp.Equal(op.Key, "f"), "every key seen finished: the call is on the last")
	}

	_, ops = shares(&storeCaller{}, NewView(keys(6)))
	seen = map[string]bool{}
	for _, op := range ops {
		seen[op.Key] = true
	}
	assert.Check(t, cmp.DeepEqual(seen, map[string]bool{"a": true, "b": true, "c": true}), "the store's keys called on")
}

// TestATokenIsGuessedAroundTheLastOneSeen: a token presented is the one
// the worker last saw for the key, one below it (stale), or one or two
// above (ahead), each in turn, and never below 1.
func TestATokenIsGuessedAroundTheLastOneSeen(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	v := NewView(keys(3))
	v.token["a"] = 5
	got := map[int64]bool{}
	for range 1000 {
		got[v.guess(r, "a")] = true
	}
	assert.Check(t, cmp.DeepEqual(got, map[int64]bool{4: true, 5: true, 6: true, 7: true}), "tokens guessed after seeing 5")
	got = map[int64]bool{}
	for range 1000 {
		got[v.guess(r, "b")] = true
	}
	assert.Check(t, cmp.DeepEqual(got, map[int64]bool{1: true, 2: true}), "tokens guessed for a key never seen: 1 at least")
}

// TestAnEndOfWorkPresentsAGuessedToken: a completion or a finish
// presents a token around the last seen, not always the one held.
func TestAnEndOfWorkPresentsAGuessedToken(t *testing.T) {
	t.Parallel()
	v := NewView(keys(3))
	v.token["a"], v.token["b"], v.token["c"] = 5, 5, 5
	for _, c := range []Caller{&mailboxCaller{}, &queueCaller{}, &storeCaller{}} {
		_, ops := shares(c, v)
		tokens := map[int64]bool{}
		for _, op := range ops {
			if op.Kind == history.Complete || op.Kind == history.Finish || op.Kind == history.Write {
				tokens[op.Token] = true
			}
		}
		assert.Check(t, cmp.DeepEqual(tokens, map[int64]bool{4: true, 5: true, 6: true, 7: true}), "%T: tokens presented", c)
	}
}
