package history

// This file holds the calls that got no answer: what each may have done,
// and what it cannot have done, as a read after it shows.

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

// readOp is a read of key, answered with out.
func readOp(key string, out Out) Op {
	out.Result = OK
	return Op{Kind: Read, Key: key, Out: out}
}

func TestWhatAnUnansweredMailboxCallMayHaveDone(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	done := call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}})
	for _, tc := range []struct {
		name string
		ops  []Op
		want Verdict
	}{
		{"b's claim inside a's lease cannot have taken m", []Op{first,
			call(2, 20, 0, claimOp("b", "m", 105, Out{})),
			call(3, 30, 40, readOp("m", Out{State: "CLAIMED", Holder: "b", Token: 6, Expires: 115}))}, NotLinearizable},
		{"b's claim after a's lease may have taken m", []Op{first,
			call(2, 20, 0, claimOp("b", "m", 110, Out{})),
			call(3, 30, 40, readOp("m", Out{State: "CLAIMED", Holder: "b", Token: 6, Expires: 120}))}, Linearizable},
		{"b's claim of a done message cannot have taken it", []Op{first, done,
			call(2, 40, 0, claimOp("b", "m", 200, Out{})),
			call(3, 50, 60, readOp("m", Out{State: "CLAIMED", Holder: "b", Token: 6, Expires: 210}))}, NotLinearizable},
		{"a's completion with its token may have completed m", []Op{first,
			call(1, 20, 0, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{}}),
			call(3, 30, 40, readOp("m", Out{State: "DONE", Holder: "a", Token: 5, Expires: 110}))}, Linearizable},
		{"b's completion with a's token cannot have completed m", []Op{first,
			call(2, 20, 0, Op{Kind: Complete, Key: "m", Actor: "b", Token: 5, Out: Out{}}),
			call(3, 30, 40, readOp("m", Out{State: "DONE", Holder: "a", Token: 5, Expires: 110}))}, NotLinearizable},
		{"a's completion with another token cannot have completed m", []Op{first,
			call(1, 20, 0, Op{Kind: Complete, Key: "m", Actor: "a", Token: 4, Out: Out{}}),
			call(3, 30, 40, readOp("m", Out{State: "DONE", Holder: "a", Token: 4, Expires: 110}))}, NotLinearizable},
		{"a's dead letter with its token may have sent m back to NEW", []Op{first,
			call(1, 20, 0, Op{Kind: DeadLetter, Key: "m", Actor: "a", Token: 5, Out: Out{}}),
			call(3, 30, 40, readOp("m", Out{State: "NEW", Retries: 1}))}, Linearizable},
		{"a dead letter with another token cannot have sent m back to NEW", []Op{first,
			call(1, 20, 0, Op{Kind: DeadLetter, Key: "m", Actor: "a", Token: 4, Out: Out{}}),
			call(3, 30, 40, readOp("m", Out{State: "NEW", Retries: 1}))}, NotLinearizable},
		{"a dead letter of a done message cannot have sent it back to NEW", []Op{first, done,
			call(1, 40, 0, Op{Kind: DeadLetter, Key: "m", Actor: "a", Token: 5, Out: Out{}}),
			call(3, 50, 60, readOp("m", Out{State: "NEW", Retries: 1}))}, NotLinearizable},
		{"a completion of a message never claimed cannot have completed it", []Op{
			call(1, 0, 0, Op{Kind: Complete, Key: "m", Actor: "a", Token: 0, Out: Out{}}),
			call(3, 30, 40, readOp("m", Out{State: "DONE", Holder: "a"}))}, NotLinearizable},
	} {
		assert.Check(t, checked(t, Mailbox(10, 3), tc.ops...) == tc.want, "%s: want %s", tc.name, tc.want)
	}
}

func TestWhatAnUnansweredQueueCallMayHaveDone(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "j", 100, won(5, 100)))
	finished := call(1, 20, 30, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{Result: OK}})
	// a's takeover at 115 got no answer; b's refusal at 116 naming a
	// shows it took j, with a fence above 5 nobody was told.
	takeover := []Op{first,
		call(1, 20, 0, claimOp("a", "j", 115, Out{})),
		call(2, 30, 40, claimOp("b", "j", 116, Out{Result: Refused, Reason: "lease_held", Holder: "a"}))}
	finish := func(fence int64, out Out) Op {
		return call(1, 50, 60, Op{Kind: Finish, Key: "j", Actor: "a", Token: fence, Out: out})
	}
	for _, tc := range []struct {
		name string
		ops  []Op
		want Verdict
	}{
		{"b's claim inside a's lease cannot have taken j", []Op{first,
			call(2, 20, 0, claimOp("b", "j", 105, Out{})),
			call(3, 30, 40, readOp("j", Out{State: "running", Holder: "b", Token: 6, Expires: 115}))}, NotLinearizable},
		{"b's claim at the end of a's lease may have taken j", []Op{first,
			call(2, 20, 0, claimOp("b", "j", 110, Out{})),
			call(3, 30, 40, readOp("j", Out{State: "running", Holder: "b", Token: 6, Expires: 120}))}, Linearizable},
		{"a claim of a queued job may have taken it", []Op{
			call(2, 0, 0, claimOp("b", "j", 100, Out{})),
			call(3, 30, 40, readOp("j", Out{State: "running", Holder: "b", Token: 1, Expires: 110}))}, Linearizable},
		{"b's claim of a finished job cannot have taken it", []Op{first, finished,
			call(2, 40, 0, claimOp("b", "j", 200, Out{})),
			call(3, 50, 60, readOp("j", Out{State: "running", Holder: "b", Token: 6, Expires: 210}))}, NotLinearizable},
		{"a's finish with its fence may have finished j", []Op{first,
			call(1, 20, 0, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{}}),
			call(3, 30, 40, readOp("j", Out{State: "completed", Holder: "a", Token: 5, Expires: 110}))}, Linearizable},
		{"b's finish with a's fence cannot have finished j", []Op{first,
			call(2, 20, 0, Op{Kind: Finish, Key: "j", Actor: "b", Token: 5, Out: Out{}}),
			call(3, 30, 40, readOp("j", Out{State: "completed", Holder: "a", Token: 5, Expires: 110}))}, NotLinearizable},
		{"a's finish with another fence cannot have finished j", []Op{first,
			call(1, 20, 0, Op{Kind: Finish, Key: "j", Actor: "a", Token: 4, Out: Out{}}),
			call(3, 30, 40, readOp("j", Out{State: "completed", Holder: "a", Token: 4, Expires: 110}))}, NotLinearizable},
		{"a finish of a job never claimed cannot have finished it", []Op{
			call(1, 0, 0, Op{Kind: Finish, Key: "j", Actor: "a", Token: 0, Out: Out{}}),
			call(3, 30, 40, readOp("j", Out{State: "completed", Holder: "a"}))}, NotLinearizable},
		{"after the hidden takeover, a's old fence cannot finish j", append(append([]Op(nil), takeover...),
			finish(5, Out{Result: OK})), NotLinearizable},
		{"after the hidden takeover, a fence above the old one may finish j", append(append([]Op(nil), takeover...),
			finish(6, Out{Result: OK})), Linearizable},
		{"after the hidden takeover, a fence above may be the wrong one, refused lease_lost", append(append([]Op(nil), takeover...),
			finish(6, Out{Result: Refused, Reason: "lease_lost", Holder: "a"})), Linearizable},
		{"a refusal of that finish must be lease_lost", append(append([]Op(nil), takeover...),
			finish(6, Out{Result: Refused, Reason: "finished", Holder: "a"})), NotLinearizable},
		{"a refusal of that finish must name a as the holder", append(append([]Op(nil), takeover...),
			finish(6, Out{Result: Refused, Reason: "lease_lost", Holder: "b"})), NotLinearizable},
	} {
		assert.Check(t, checked(t, Queue(10), tc.ops...) == tc.want, "%s: want %s", tc.name, tc.want)
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWhatAnUnansweredStoreCallMayHaveDone: a write with no answer may
// have counted one more effect if its token is not below the mark, the
// mark's own token included; a completion with no answer may have
// completed the key and raised its mark to its token, unless the key was
// done already; a read with no answer did nothing.
func TestWhatAnUnansweredStoreCallMayHaveDone(t *testing.T) {
	first := call(1, 0, 10, writeOp("k", 3, Out{Result: OK}))
	completed := call(1, 20, 30, Op{Kind: Complete, Key: "k", Actor: "w", Token: 3, Out: Out{Result: OK}})
	read := func(mark, writes int64, done bool) Op {
		return call(3, 50, 60, readOp("k", Out{Mark: mark, Count: writes, Done: done}))
	}
	for _, tc := range []struct {
		name string
		ops  []Op
		want Verdict
	}{
		{"a repeat with the mark's own token may have counted", []Op{first,
			call(2, 20, 0, writeOp("k", 3, Out{})), read(3, 2, false)}, Linearizable},
		{"a write below the mark cannot have counted", []Op{first,
			call(2, 20, 0, writeOp("k", 2, Out{})), read(3, 2, false)}, NotLinearizable},
		{"a completion may have completed the key and raised its mark", []Op{first,
			call(2, 20, 0, Op{Kind: Complete, Key: "k", Actor: "w", Token: 5, Out: Out{}}), read(5, 1, true)}, Linearizable},
		{"a completion cannot have completed it without raising its mark", []Op{first,
			call(2, 20, 0, Op{Kind: Complete, Key: "k", Actor: "w", Token: 5, Out: Out{}}), read(3, 1, true)}, NotLinearizable},
		{"a completion of a done key cannot have raised its mark", []Op{first, completed,
			call(2, 40, 0, Op{Kind: Complete, Key: "k", Actor: "w", Token: 5, Out: Out{}}), read(5, 1, true)}, NotLinearizable},
		{"a read cannot have completed the key", []Op{first,
			call(2, 20, 0, Op{Kind: Read, Key: "k", Out: Out{}}), read(3, 1, true)}, NotLinearizable},
		{"a read cannot have completed a key never written", []Op{
			call(2, 20, 0, Op{Kind: Read, Key: "k", Out: Out{}}), read(0, 0, true)}, NotLinearizable},
	} {
		assert.Check(t, checked(t, Store(), tc.ops...) == tc.want, "%s: want %s", tc.name, tc.want)
	}
}

func TestARecordThatCannotBeWrittenIsAnError(t *testing.T) {
	rec := NewRecorder(failingWriter{}, 1)
	_, err := rec.Call(Op{Kind: Claim, Key: "m", Actor: "a"})
	assert.Check(t, err != nil, "a call whose first line could not be written must be an error: the history would lack it")
}

func TestAnAnswerThatCannotBeWrittenIsAnError(t *testing.T) {
	w := &switchable{}
	rec := NewRecorder(w, 1)
	answered, err := rec.Call(Op{Kind: Claim, Key: "m", Actor: "a"})
	assert.NilError(t, err)
	w.fail = true
	assert.Check(t, answered(won(1, 100)) != nil, "an answer that could not be written must be an error")
}

// switchable fails its writes once told to.
type switchable struct{ fail bool }

func (s *switchable) Write(p []byte) (int, error) {
	if s.fail {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestMergeReportsWhatItCannotRead(t *testing.T) {
	_, err := Merge("[")
	assert.Check(t, err != nil, "a pattern that is not one must be an error")
	dir := t.TempDir()
	assert.NilError(t, os.Mkdir(filepath.Join(dir, "ops-1.jsonl"), 0o755))
	_, err = Merge(filepath.Join(dir, "ops-*.jsonl"))
	assert.Check(t, err != nil, "a record that cannot be read must be an error, not an empty history")
	assert.NilError(t, os.Remove(filepath.Join(dir, "ops-1.jsonl")))
	for _, line := range []string{
		`{"seq":1,"op":"claim"}`,     // no process
		`{"process":1,"op":"claim"}`, // no number
		`{"process":1,"seq":1}`,      // no operation
	} {
		assert.NilError(t, os.WriteFile(filepath.Join(dir, "ops-2.jsonl"), []byte(line+"\n"), 0o644))
		_, err = Merge(filepath.Join(dir, "ops-*.jsonl"))
		assert.Check(t, err != nil && strings.Contains(err.Error(), "line 1"),
			"%s is not an operation: want an error naming its line, got %v", line, err)
	}
}

func TestMergeOrdersTheCallsByTheirStart(t *testing.T) {
	dir := t.TempDir()
	later := Op{Process: 1, Seq: 1, Kind: Read, Key: "k", Call: 200, Return: 210, Out: Out{Result: OK}}
	earlier := Op{Process: 2, Seq: 1, Kind: Read, Key: "k", Call: 100, Return: 110, Out: Out{Result: OK}}
	for name, op := range map[string]Op{"ops-1.jsonl": later, "ops-2.jsonl": earlier} {
		var b strings.Builder
		assert.NilError(t, WriteLines(&b, []Op{op}))
		assert.NilError(t, os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644))
	}
	ops, err := Merge(filepath.Join(dir, "ops-*.jsonl"))
	assert.NilError(t, err)
	assert.Assert(t, len(ops) == 2)
	assert.Check(t, ops[0].Process == 2 && ops[1].Process == 1,
		"process 2 called first, at 100, and process 1 at 200: the history must list them in that order, got processes %d, %d", ops[0].Process, ops[1].Process)
}
