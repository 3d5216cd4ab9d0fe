package calls

// This file holds the tests of the calls themselves: the run's setup,
// each mechanism's answers in the history's words, and what a worker
// learns from them.

import (
	"context"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// opened sets mechanism name up on a fresh database with keys, and opens
// it for a worker whose calls read the clock it returns.
func opened(t *testing.T, name string, keys ...string) (Caller, *clock.Logical, *sqlitedb.DB) {
	t.Helper()
	m, err := Named(name)
	assert.NilError(t, err)
	db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	assert.NilError(t, m.Setup(t.Context(), db, keys))
	clk := &clock.Logical{}
	return m.Open(db, clk), clk, db
}

// do makes op as actor at time now and returns its answer.
func do(t *testing.T, c Caller, clk *clock.Logical, now int64, op history.Op) history.Out {
	t.Helper()
	clk.Set(now)
	op.Now = now
	out, err := c.Call(context.Background(), op)
	assert.NilError(t, err, "%s %s", op.Kind, op.Key)
	return out
}

// TestTheMechanismsAreNamedAsTheFlagSaysAndNoOthers: --mechanism takes
// the four names, in the usage's order, and nothing else.
func TestTheMechanismsAreNamedAsTheFlagSaysAndNoOthers(t *testing.T) {
	t.Parallel()
	assert.Check(t, cmp.DeepEqual(Names(), []string{"mailbox", "queue", "gate", "store"}))
	for _, n := range Names() {
		m, err := Named(n)
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(m.Spec().Name, n), "the specification checked for %s", n)
	}
	_, err := Named("lock")
	assert.Check(t, cmp.ErrorContains(err, `no mechanism "lock"`))
}

// TestTheMailboxsAnswersInTheHistorysWords: a claim's token and lease
// end (10 ms after the time the call read), a renewal said as one, a refusal's reason and holder, a
// completion accepted or refused as stale, and a read's row.
func TestTheMailboxsAnswersInTheHistorysWords(t *testing.T) {
	t.Parallel()
	c, clk, _ := opened(t, "mailbox", "k-1")
	claim := func(actor string) history.Op { return history.Op{Kind: history.Claim, Key: "k-1", Actor: actor} }

	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 100, claim("w1")), history.Out{Result: history.OK, Token: 1, Expires: 110}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 101, claim("w1")), history.Out{Result: history.OK, Token: 1, Expires: 110, Renewed: true}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 102, claim("w2")), history.Out{Result: history.Refused, Reason: "lease_held", Holder: "w1"}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 103, history.Op{Kind: history.Complete, Key: "k-1", Actor: "w1", Token: 2}),
		history.Out{Result: history.Refused, Reason: "stale_token"}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 104, history.Op{Kind: history.Read, Key: "k-1"}),
		history.Out{Result: history.OK, State: "CLAIMED", Holder: "w1", Token: 1, Expires: 110}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 105, history.Op{Kind: history.Complete, Key: "k-1", Actor: "w1", Token: 1}),
		history.Out{Result: history.OK}))
}

// TestTheQueuesAnswersInTheHistorysWords: a claim's fence and lease end
// (10 ms on),
// a refusal naming the holder, a finish accepted, a read's job; the
// run's jobs are OP-1, OP-2, ... of one unit each, queued.
func TestTheQueuesAnswersInTheHistorysWords(t *testing.T) {
	t.Parallel()
	c, clk, db := opened(t, "queue", "k-1", "k-2")
	q := queue.Open(db, clock.Fixed(0), LeaseMs)
	for i, k := range []string{"k-1", "k-2"} {
		j, err := q.Get(t.Context(), k)
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(j.Operation, []string{"OP-1", "OP-2"}[i]), "%s's operation", k)
		assert.Check(t, cmp.Equal(j.Units, int64(1)), "%s's units", k)
		assert.Check(t, cmp.Equal(j.State, queue.Queued), "%s's state", k)
	}

	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 100, history.Op{Kind: history.Claim, Key: "k-1", Actor: "w1"}),
		history.Out{Result: history.OK, Token: 1, Expires: 110}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 101, history.Op{Kind: history.Claim, Key: "k-1", Actor: "w2"}),
		history.Out{Result: history.Refused, Reason: "lease_held", Holder: "w1"}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 102, history.Op{Kind: history.Read, Key: "k-1"}),
		history.Out{Result: history.OK, State: "running", Holder: "w1", Token: 1, Expires: 110}))
	assert.Check(t, cmp.DeepEqual(do(t, c, clk, 103, history.Op{Kind: history.Finish, Key: "k-1", Actor: "w1", Token: 1}),
		history.Out{Result: history.OK}))
}

// TestTheGatesAndTheStoresAnswersInTheHistorysWords: the gate's result
// word and its state; the store's write accepted or refused with the
// mark it was judged by, its completion, and a read's mark, count and
// done. The store's run keys are its first three.
func TestTheGatesAndTheStoresAnswersInTheHistorysWords(t *testing.T) {
	t.Parallel()
	g, clk, _ := opened(t, "gate")
	assert.Check(t, cmp.DeepEqual(do(t, g, clk, 0, history.Op{Kind: history.Apply, Key: "OP-1", Token: 2, Units: 2}), history.Out{Result: "applied"}))
	assert.Check(t, cmp.DeepEqual(do(t, g, clk, 0, history.Op{Kind: history.Apply, Key: "OP-2", Token: 1, Units: 1}), history.Out{Result: "fenced"}))
	assert.Check(t, cmp.DeepEqual(do(t, g, clk, 0, history.Op{Kind: history.Read, Key: "gate"}),
		history.Out{Result: history.OK, Mark: 2, Count: 2, Receipts: 1}))

	s, clk, db := opened(t, "store", "k-1", "k-2", "k-3", "k-4")
	assert.Check(t, cmp.DeepEqual(do(t, s, clk, 0, history.Op{Kind: history.Write, Key: "k-3", Actor: "w1", Token: 4}), history.Out{Result: history.OK}))
	assert.Check(t, cmp.DeepEqual(do(t, s, clk, 0, history.Op{Kind: history.Write, Key: "k-3", Actor: "w2", Token: 3}),
		history.Out{Result: history.Refused, Reason: "stale_token", Mark: 4}))
	assert.Check(t, cmp.DeepEqual(do(t, s, clk, 0, history.Op{Kind: history.Complete, Key: "k-3", Actor: "w1", Token: 4}), history.Out{Result: history.OK}))
	assert.Check(t, cmp.DeepEqual(do(t, s, clk, 0, history.Op{Kind: history.Read, Key: "k-3"}),
		history.Out{Result: history.OK, Mark: 4, Count: 1, Done: true}))
	var n int
	assert.NilError(t, db.QueryRow(t.Context(), `SELECT COUNT(*) FROM resources`).Scan(&n))
	assert.Check(t, cmp.Equal(n, HotKeys), "the store's keys: the first three of the run's")
}

// TestACallAMechanismDoesNotHaveIsAnError: a worker asked to make a call
// its mechanism has not gets an error naming both, not an answer.
func TestACallAMechanismDoesNotHaveIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		kind history.Kind
		want string
	}{
		{"mailbox", history.Finish, `the mailbox has no call "finish"`},
		{"queue", history.Complete, `the queue has no call "complete"`},
		{"gate", history.Claim, `the gate has no call "claim"`},
		{"store", history.Apply, `the store has no call "apply"`},
	} {
		c, _, _ := opened(t, tc.name, "k-1", "k-2", "k-3")
		_, err := c.Call(t.Context(), history.Op{Kind: tc.kind, Key: "k-1"})
		assert.Check(t, cmp.ErrorContains(err, tc.want), tc.name)
	}
}

// TestASetupThatFailsSaysSo: a run's keys that cannot all be added (one
// twice) fail the setup, and so does a schema that cannot be created (a
// closed database), even with no key to add after it.
func TestASetupThatFailsSaysSo(t *testing.T) {
	t.Parallel()
	for _, name := range Names() {
		m, err := Named(name)
		assert.NilError(t, err)
		db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
		assert.NilError(t, err)
		if name != "gate" { // the gate's key is its one resource, made with its schema
			err = m.Setup(t.Context(), db, []string{"k-1", "k-1", "k-2"})
			assert.Check(t, err != nil, "%s: a key added twice must fail the setup", name)
		}
		db.Close()
		err = m.Setup(t.Context(), db, nil)
		assert.Check(t, err != nil, "%s: a schema that cannot be created must fail the setup", name)
	}
}

// TestAWorkerLearnsTokensAndEndsFromTheAnswers: what a worker has seen
// moves only forward: a claim won gives its token, a read or a refusal
// the mark or token it shows if higher, an applied or replayed fence
// its fence; a key is finished once an answer says it is done; an
// answer that never came teaches nothing.
func TestAWorkerLearnsTokensAndEndsFromTheAnswers(t *testing.T) {
	t.Parallel()
	ok := func(out history.Out) history.Out { out.Result = history.OK; return out }
	for _, tc := range []struct {
		name     string
		op       history.Op
		out      history.Out
		token    int64
		finished bool
	}{
		{"a claim won", history.Op{Kind: history.Claim, Key: "k"}, ok(history.Out{Token: 3}), 3, false},
		{"a refused claim", history.Op{Kind: history.Claim, Key: "k"}, history.Out{Result: history.Refused, Reason: "lease_held", Token: 9}, 5, false},
		{"a read's higher token", history.Op{Kind: history.Read, Key: "k"}, ok(history.Out{Token: 7}), 7, false},
		{"a read's lower token", history.Op{Kind: history.Read, Key: "k"}, ok(history.Out{Token: 2}), 5, false},
		{"a read's mark before its token", history.Op{Kind: history.Read, Key: "k"}, ok(history.Out{Mark: 8, Token: 2}), 8, false},
		{"a read's lower mark", history.Op{Kind: history.Read, Key: "k"}, ok(history.Out{Mark: 3, Token: 9}), 5, false},
		{"a refusal's higher mark", history.Op{Kind: history.Write, Key: "k", Token: 1}, history.Out{Result: history.Refused, Reason: "stale_token", Mark: 6}, 6, false},
		{"a refusal's lower mark", history.Op{Kind: history.Write, Key: "k", Token: 1}, history.Out{Result: history.Refused, Reason: "stale_token", Mark: 4}, 5, false},
		{"an applied fence", history.Op{Kind: history.Apply, Key: "OP-1", Token: 9}, history.Out{Result: "applied"}, 9, false},
		{"a replayed fence", history.Op{Kind: history.Apply, Key: "OP-1", Token: 9}, history.Out{Result: "replayed"}, 9, false},
		{"a lower fence replayed", history.Op{Kind: history.Apply, Key: "OP-1", Token: 2}, history.Out{Result: "replayed"}, 5, false},
		{"a conflict's fence", history.Op{Kind: history.Apply, Key: "OP-1", Token: 9}, history.Out{Result: "conflict"}, 5, false},
		{"no answer", history.Op{Kind: history.Read, Key: "k"}, history.Out{Result: history.Unknown, Token: 9}, 5, false},
		{"a completion", history.Op{Kind: history.Complete, Key: "k", Token: 5}, ok(history.Out{}), 5, true},
		{"a finish", history.Op{Kind: history.Finish, Key: "k", Token: 5}, ok(history.Out{}), 5, true},
		{"a refused completion", history.Op{Kind: history.Complete, Key: "k", Token: 5}, history.Out{Result: history.Refused, Reason: "stale_token"}, 5, false},
		{"a read of a done message", history.Op{Kind: history.Read, Key: "k"}, ok(history.Out{State: "DONE"}), 5, true},
		{"a read of a completed job", history.Op{Kind: history.Read, Key: "k"}, ok(history.Out{State: "completed"}), 5, true},
		{"a refusal: terminal", history.Op{Kind: history.Claim, Key: "k"}, history.Out{Result: history.Refused, Reason: "terminal"}, 5, true},
		{"a refusal: finished", history.Op{Kind: history.Claim, Key: "k"}, history.Out{Result: history.Refused, Reason: "finished"}, 5, true},
		{"a refusal: not claimable", history.Op{Kind: history.Claim, Key: "k"}, history.Out{Result: history.Refused, Reason: "not_claimable"}, 5, true},
	} {
		v := NewView([]string{"k"})
		v.token["k"], v.token["gate"] = 5, 5
		v.Learn(tc.op, tc.out)
		key := tc.op.Key
		if tc.op.Kind == history.Apply {
			key = "gate"
		}
		assert.Check(t, cmp.Equal(v.token[key], tc.token), "%s: the token seen", tc.name)
		assert.Check(t, cmp.Equal(v.finished[key], tc.finished), "%s: the key seen finished", tc.name)
	}
}

// TestACallThatFailsHasNoAnswer: a call the database cannot serve (it
// is closed) is an error, not an answer: the history records it as
// unanswered, one that may have taken effect or not.
func TestACallThatFailsHasNoAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		op   history.Op
	}{
		{"mailbox", history.Op{Kind: history.Complete, Key: "k-1", Actor: "w1", Token: 1}},
		{"queue", history.Op{Kind: history.Finish, Key: "k-1", Actor: "w1", Token: 1}},
		{"gate", history.Op{Kind: history.Apply, Key: "OP-1", Token: 1, Units: 1}},
		{"store", history.Op{Kind: history.Write, Key: "k-1", Actor: "w1", Token: 1}},
	} {
		c, _, db := opened(t, tc.name, "k-1", "k-2", "k-3")
		db.Close()
		out, err := c.Call(t.Context(), tc.op)
		assert.Check(t, err != nil, "%s: %s on a closed database answered %+v", tc.name, tc.op.Kind, out)
	}
}
