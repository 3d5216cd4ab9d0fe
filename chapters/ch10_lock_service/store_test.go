package lockservice

// These tests are about the store alone: its committed mark decides, key
// by key, whatever the lock service says.

import (
	"errors"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/fencedstore/fencedstoretest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestStoreJudgesATokenByItsMark: with token 15 committed, a write with
// 14 is refused stale_token and changes nothing, while 15 again (the
// holder's retry) and 16 are accepted and move the mark.
func TestStoreJudgesATokenByItsMark(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		token    int64
		accepted bool
		mark     int64
	}{
		{"below", 14, false, 15},
		{"equal", 15, true, 15},
		{"above", 16, true, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := fencedstoretest.New(t, "report")
			s := d.Store(fencedstore.Fence)
			assert.NilError(t, s.Write(t.Context(), "report", 15, "B"), "set-up: B's write with token 15")

			err := s.Write(t.Context(), "report", tc.token, "A")

			if tc.accepted {
				assert.NilError(t, err, "a write with token %d after the mark reached 15", tc.token)
			} else {
				reason, _ := fencedstore.ReasonOf(err)
				assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken), "a write with token %d below the mark 15 = %v; want refused stale_token", tc.token, err)
			}
			got := d.Get("report")
			assert.Check(t, cmp.Equal(got.Mark, tc.mark), "the mark after token %d", tc.token)
			want := int64(1)
			if tc.accepted {
				want = 2
			}
			assert.Check(t, cmp.Equal(got.Writes, want), "writes that took effect after B's and A's with token %d", tc.token)
		})
	}
}

// TestStoreKeepsAMarkPerKey: a high token on one key does not fence a
// lower one on another: every lock's revisions come from one counter,
// and each key is fenced only against its own holders.
func TestStoreKeepsAMarkPerKey(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "msg-1", "msg-2")
	s := d.Store(fencedstore.Fence)
	assert.NilError(t, s.Write(t.Context(), "msg-2", 40, "B"))

	err := s.Write(t.Context(), "msg-1", 12, "A")

	assert.NilError(t, err, "msg-1's holder with token 12 was refused because of msg-2's mark 40")
}

// TestCompletionIsFencedAndHappensOnce: a completion below the mark is
// refused stale_token; the holder's, with a greater token, completes the
// key and moves its mark, and no other key; a second completion, even
// with a greater token, is refused terminal, while a late write below
// the mark is still refused stale_token.
func TestCompletionIsFencedAndHappensOnce(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "msg-1", "msg-2")
	s := d.Store(fencedstore.Fence)
	assert.NilError(t, s.Write(t.Context(), "msg-1", 20, "B"))

	stale := s.Complete(t.Context(), "msg-1", 19, "A")
	first := s.Complete(t.Context(), "msg-1", 21, "B")
	again := s.Complete(t.Context(), "msg-1", 22, "C")
	late := s.Write(t.Context(), "msg-1", 20, "A")

	reason, _ := fencedstore.ReasonOf(stale)
	assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken), "A's completion with 19 below the mark 20 = %v", stale)
	assert.Check(t, first, "B's completion with 21 = %v; want accepted", first)
	reason, _ = fencedstore.ReasonOf(again)
	assert.Check(t, cmp.Equal(reason, fencedstore.Terminal), "a second completion = %v; want refused terminal", again)
	reason, _ = fencedstore.ReasonOf(late)
	assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken), "A's write with 20 after the completion with 21 = %v; want refused stale_token", late)
	got := d.Get("msg-1")
	assert.Check(t, cmp.Equal(got.DoneToken, int64(21)), "the key must stay completed by B's token")
	assert.Check(t, cmp.Equal(got.Mark, int64(21)), "the mark after B's completion with 21")
	assert.Check(t, cmp.Equal(d.Get("msg-2").DoneToken, int64(0)), "completing msg-1 completed msg-2 too")
}

// TestAddingAKeyTwiceIsAnError: Add reports a key that already exists.
func TestAddingAKeyTwiceIsAnError(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "msg-1")

	err := d.Store(fencedstore.Fence).Add(t.Context(), "msg-1")

	assert.Check(t, err != nil, "adding msg-1 twice was not an error")
}

// TestUnknownKeyIsAnError: a write, a completion or a read of a key the
// store was never given is an error, not a refusal and not an empty row.
func TestUnknownKeyIsAnError(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t)
	s := d.Store(fencedstore.Fence)
	_, get := s.Get(t.Context(), "nope")
	for name, err := range map[string]error{
		"write":    s.Write(t.Context(), "nope", 1, "A"),
		"complete": s.Complete(t.Context(), "nope", 1, "A"),
		"get":      get,
	} {
		assert.Check(t, cmp.ErrorIs(err, fencedstore.ErrUnknownKey), "%s on an unknown key", name)
	}
}

// TestUnfencedStoreTakesAStaleWrite: the store of --fence off accepts
// A's write with token 12 after B's with 15: nothing stops a holder that
// lost its lock without knowing.
func TestUnfencedStoreTakesAStaleWrite(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	s := d.Store(fencedstore.None)
	assert.NilError(t, s.Write(t.Context(), "report", 15, "B"))

	err := s.Write(t.Context(), "report", 12, "A")

	assert.NilError(t, err, "the unfenced store refused a write")
	log := d.Accepted()
	assert.Check(t, cmp.Len(log, 2), "the log of accepted writes")
	assert.Check(t, cmp.Equal(d.Get("report").Mark, int64(15)), "the unfenced store's mark keeps the highest token it saw")
}

// TestStoreWithoutItsTablesAnswersWithErrors: on a file whose tables were
// never created, every call is an error, not an answer.
func TestStoreWithoutItsTablesAnswersWithErrors(t *testing.T) {
	t.Parallel()
	db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "empty.db"))
	s := fencedstore.Open(db, fencedstore.Fence)

	_, get := s.Get(t.Context(), "report")
	_, log := s.Accepted(t.Context())
	write := s.Write(t.Context(), "report", 1, "A")
	complete := s.Complete(t.Context(), "report", 1, "A")
	claim := s.ClaimMark(t.Context(), "report", 1, "A")

	for name, err := range map[string]error{"get": get, "log": log, "write": write, "complete": complete, "claim": claim} {
		_, refused := fencedstore.ReasonOf(err)
		assert.Check(t, err != nil && !refused, "%s on a file without the store's tables = %v; want an error", name, err)
	}
}

// TestWriteThatCannotBeLoggedDoesNotHappen: a write is accepted and
// logged in one transaction; when the log cannot take it, the write is
// an error and its effect and mark roll back with it.
func TestWriteThatCannotBeLoggedDoesNotHappen(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	sqlitedbtest.Exec(t, d.Connect(), `DROP TABLE accepted`)

	err := d.Store(fencedstore.Fence).Write(t.Context(), "report", 7, "A")

	assert.Check(t, err != nil, "a write whose log line could not be written was accepted")
	got := d.Get("report")
	assert.Check(t, cmp.Equal(got.Writes, int64(0)), "the effect of a write that failed was committed")
	assert.Check(t, cmp.Equal(got.Mark, int64(0)), "the mark of a write that failed was committed")
}

// TestStoreDecidesInsideItsTransactionWhenOvertaken: A presents token 12
// to a key whose mark is 10, and is overtaken in the one gap a caller
// cannot close, just before its transaction begins: B's write with token
// 15 commits there. A's write must be judged by the mark its own
// transaction reads, 15, and refused stale_token; a store that looked at
// the mark first and wrote afterwards would take it on the word of 10.
func TestStoreDecidesInsideItsTransactionWhenOvertaken(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	b := d.Store(fencedstore.Fence)
	assert.NilError(t, b.Write(t.Context(), "report", 10, "B"), "set-up: B's first write, with token 10")
	db := d.Connect()
	overtaken := false
	db.PauseBeforeTransactions(func() {
		if !overtaken {
			overtaken = true
			assert.NilError(t, b.Write(t.Context(), "report", 15, "B"), "B's write with token 15, in the gap before A's transaction")
		}
	})

	err := fencedstore.Open(db, fencedstore.Fence).Write(t.Context(), "report", 12, "A")

	assert.Assert(t, overtaken, "A's write began no transaction: nothing could overtake it")
	reason, _ := fencedstore.ReasonOf(err)
	assert.Check(t, cmp.Equal(reason, fencedstore.StaleToken),
		"A's write with token 12, overtaken by B's with 15 before its transaction began = %v; want refused stale_token: the store must decide inside the transaction that writes", err)
	got := d.Get("report")
	assert.Check(t, cmp.Equal(got.Writes, int64(2)), "writes that took effect: want B's two, not A's")
	assert.Check(t, cmp.Equal(got.Mark, int64(15)), "the mark after A's overtaken write")
}

// TestUnreadableMarkIsAnErrorNotARefusal: a write the store turned away,
// on a key whose mark it then cannot read back (the row is damaged), is
// an error: the store refuses only what it can explain, and never names
// a mark it did not read.
func TestUnreadableMarkIsAnErrorNotARefusal(t *testing.T) {
	t.Parallel()
	d := fencedstoretest.New(t, "report")
	sqlitedbtest.Exec(t, d.Connect(), `UPDATE resources SET mark = 'many' WHERE key = 'report'`)

	err := d.Store(fencedstore.Fence).Write(t.Context(), "report", 5, "A")

	reason, refused := fencedstore.ReasonOf(err)
	assert.Check(t, err != nil && !refused, "a write on a key whose mark cannot be read = %v (reason %q); want an error, not a refusal", err, reason)
}

// TestAVerdictThatCannotBeReadIsAnErrorNotARefusal: the store's UPDATE
// ran, but the driver cannot say whether it changed the key's row, which
// is the whole verdict of the token comparison. A write or a completion
// then fails with the driver's error: not accepted, not refused
// stale_token, and rolled back, so the effect, the mark and the log are as
// they were.
func TestAVerdictThatCannotBeReadIsAnErrorNotARefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		op   string
		call func(t *testing.T, s *fencedstore.Store) error
	}{
		{"write", func(t *testing.T, s *fencedstore.Store) error { return s.Write(t.Context(), "report", 7, "A") }},
		{"complete", func(t *testing.T, s *fencedstore.Store) error { return s.Complete(t.Context(), "report", 7, "A") }},
	} {
		t.Run(tc.op, func(t *testing.T) {
			t.Parallel()
			d := fencedstoretest.New(t, "report")
			before := d.Get("report")

			err := tc.call(t, fencedstore.Open(sqlitedbtest.OpenCountless(t, d.Path), fencedstore.Fence))

			reason, refused := fencedstore.ReasonOf(err)
			assert.Check(t, err != nil && !refused, "a %s with token 7 whose count of changed rows cannot be read = %v (reason %q); want an error, not a refusal", tc.op, err, reason)
			assert.Check(t, errors.Is(err, sqlitedbtest.ErrNoCount), "a %s whose count cannot be read: %v; want the driver's error about the count", tc.op, err)
			assert.Check(t, cmp.Equal(d.Get("report"), before), "the key after a %s whose count cannot be read: want it as it was", tc.op)
		})
	}
}
