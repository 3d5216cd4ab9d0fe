package historylab

// This file holds the tests of the history worker: the plan it refuses,
// the calls it makes and reports, the pauses it asks for, and how it
// stops when it cannot talk to its parent.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/historylab/calls"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// mailboxPlan sets up a mailbox of forty keys in dir, more than a
// worker can finish, and returns the plan of process 7, worker-3,
// making the slot's calls [from, to).
func mailboxPlan(t *testing.T, dir string, from, to int) workerArgs {
	t.Helper()
	var keys []string
	for i := range 40 {
		keys = append(keys, fmt.Sprintf("k-%d", i+1))
	}
	path := filepath.Join(dir, "history.db")
	db, err := sqlitedb.Open(t.Context(), path)
	assert.NilError(t, err)
	m, err := calls.Named("mailbox")
	assert.NilError(t, err)
	assert.NilError(t, m.Setup(t.Context(), db, keys))
	assert.NilError(t, db.Close())
	return workerArgs{DB: path, Records: filepath.Join(dir, "ops-7.jsonl"), Mechanism: "mailbox",
		Process: 7, Actor: "worker-3", Seed: 3, From: from, To: to, Keys: keys}
}

// silentLink is a worker's link to a parent that never says anything
// and never leaves, and reads nothing: enough for a worker that fails
// before it talks.
func silentLink(t *testing.T) *worker.Link {
	return worker.NewLink(silentReader(t), io.Discard)
}

// silentReader is a parent's end that says nothing until the test ends.
func silentReader(t *testing.T) io.Reader {
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	return r
}

// TestAWorkerRefusesAPlanItCannotFollow: no plan or two, a plan that is
// not JSON, a mechanism that does not exist, a database or a record file
// that cannot be opened: each ends the worker with an error that says
// which.
func TestAWorkerRefusesAPlanItCannotFollow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := mailboxPlan(t, dir, 0, 1)
	unknown := good
	unknown.Mechanism = "abacus"
	noDB := good
	noDB.DB = filepath.Join(dir, "missing", "history.db")
	noRecords := good
	noRecords.Records = filepath.Join(dir, "missing", "ops-7.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no plan", nil, "want one argument"},
		{"two plans", append(good.encode(), good.encode()...), "got 2"},
		{"a plan that is not JSON", []string{"{"}, "read the worker's plan"},
		{"an unknown mechanism", unknown.encode(), "abacus"},
		{"a database in a missing folder", noDB.encode(), noDB.DB},
		{"a record file in a missing folder", noRecords.encode(), noRecords.Records},
	} {
		err := runWorker(t.Context(), tc.args, silentLink(t))
		assert.Check(t, cmp.ErrorContains(err, tc.want), tc.name)
	}
}

// TestAWorkerMakesItsCallsAndReportsEach: a worker makes the slot's
// calls [From, To) and reports the count after each, the last one
// marked; at a planned pause it first asks to be stopped, with the
// count and the length, and waits to be let go. Every call is recorded
// under its process and actor, in order, with its answer, and made at
// the time it recorded: a claim's lease ends one lease after it. The
// worker learns from its answers: it leaves alone a key it completed.
func TestAWorkerMakesItsCallsAndReportsEach(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := mailboxPlan(t, dir, 3, 40)
	a.Pauses = []pause{{After: 5, Ms: 20}, {After: 9, Ms: 30}}
	p, err := worker.StartInProcess(t.Context(), workerRole, a.encode()...)
	assert.NilError(t, err)
	defer p.Stop()

	var got []progress
	for len(got) == 0 || !got[len(got)-1].Last {
		var pr progress
		assert.NilError(t, p.Recv(&pr))
		got = append(got, pr)
		if pr.PauseMs > 0 {
			assert.NilError(t, p.Send(progress{Done: pr.Done}))
		}
	}
	assert.NilError(t, p.WaitClean())

	var want []progress
	for done := 4; done <= 40; done++ {
		if done == 6 || done == 10 {
			want = append(want, progress{Done: done - 1, PauseMs: int64(map[int]int{6: 20, 10: 30}[done])})
		}
		want = append(want, progress{Done: done, Last: done == 40})
	}
	assert.Check(t, slices.Equal(got, want), "the reports of a worker making calls [3, 40) with pauses after 5 and 9:\n got %v\nwant %v", got, want)

	ops, err := history.Merge(filepath.Join(dir, "ops-*.jsonl"))
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(ops, 37), "calls recorded")
	claims, completed := 0, map[string]int{} // keys the worker completed, and at which call
	for i, op := range ops {
		if at, ok := completed[op.Key]; ok {
			t.Errorf("call %d is on %s, which the worker completed at call %d: it should have moved on", i, op.Key, at)
		}
		if op.Kind == history.Complete && op.Out.Result == history.OK {
			completed[op.Key] = i
		}
		assert.Check(t, cmp.Equal(op.Process, 7), "call %d's process", i)
		assert.Check(t, cmp.Equal(op.Seq, i+1), "call %d's place", i)
		assert.Check(t, cmp.Equal(op.Actor, "worker-3"), "call %d's actor", i)
		assert.Check(t, op.Return != 0 && op.Out.Result != history.Unknown, "call %d was answered: %+v", i, op.Out)
		if op.Kind == history.Claim && op.Out.Result == history.OK && !op.Out.Renewed {
			claims++
			assert.Check(t, cmp.Equal(op.Out.Expires, op.Now+calls.LeaseMs), "claim %d's lease end: made at the time it recorded, %d", i, op.Now)
		}
	}
	assert.Check(t, claims > 0, "no claim won among 37 calls: the lease's test saw nothing")
	assert.Check(t, len(completed) > 0, "no complete accepted among 37 calls: the moving on was not tested")
}

// TestAWorkerStopsWhenItCannotTalkToItsParent: a worker that cannot
// send its report, or its request for a pause, ends with an error at
// once, having made no call after it; so does one whose pause is
// answered with something it cannot read.
func TestAWorkerStopsWhenItCannotTalkToItsParent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		pauses []pause
	}{
		{"its report", nil},
		{"its request for a pause", []pause{{After: 0, Ms: 20}}},
	} {
		dir := t.TempDir()
		a := mailboxPlan(t, dir, 0, 5)
		a.Pauses = tc.pauses
		gone, deaf := io.Pipe()
		gone.Close() // whatever the worker sends fails
		link := worker.NewLink(silentReader(t), deaf)

		err := within(t, 10*time.Second, "the worker", func() error { return runWorker(t.Context(), a.encode(), link) })

		assert.Check(t, err != nil, "a worker that cannot send %s must stop with an error", tc.name)
		ops, mergeErr := history.Merge(filepath.Join(dir, "ops-*.jsonl"))
		assert.NilError(t, mergeErr)
		assert.Assert(t, cmp.Len(ops, 1), "%s: calls recorded; want only the one it could not report or pause in", tc.name)
		if tc.pauses != nil {
			assert.Check(t, cmp.Equal(ops[0].Return, int64(0)), "a worker that could not ask for its pause made the call: %+v", ops[0])
		}
	}

	dir := t.TempDir()
	a := mailboxPlan(t, dir, 0, 5)
	a.Pauses = []pause{{After: 1, Ms: 20}}
	p, err := worker.StartInProcess(t.Context(), workerRole, a.encode()...)
	assert.NilError(t, err)
	defer p.Stop()
	for {
		var pr progress
		assert.NilError(t, p.Recv(&pr))
		if pr.PauseMs > 0 {
			assert.NilError(t, p.Send("hello"))
			break
		}
	}
	go func() { // a worker that went on would report its calls: read them
		for {
			var pr progress
			if p.Recv(&pr) != nil {
				return
			}
		}
	}()
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a worker let go with a message it cannot read did not end")
	}
	assert.Check(t, cmp.Equal(p.Exit().Code, 1), "the exit of a worker let go with a message it cannot read")
}

// TestAWorkerWhoseRunnerLeftStopsInTheMiddleOfACall: a worker waiting
// for the database when its parent closes the link gives up the call at
// once, leaves it unanswered in its records, and ends with an error,
// making no call after it.
func TestAWorkerWhoseRunnerLeftStopsInTheMiddleOfACall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := mailboxPlan(t, dir, 0, 5)
	holder, err := sqlitedb.Open(t.Context(), a.DB)
	assert.NilError(t, err)
	defer holder.Close()
	locked, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	go holder.Immediate(t.Context(), func(*sqlitedb.Tx) error {
		close(locked)
		<-release // every other writer waits for the lock meanwhile
		return nil
	})
	<-locked
	p, err := worker.StartInProcess(t.Context(), workerRole, a.encode()...)
	assert.NilError(t, err)
	defer p.Stop()
	waitForRecords(t, a.Records, 1) // the first call has begun: it waits for the lock

	p.CloseSend()
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a worker whose runner left did not stop its call waiting for the database")
	}
	assert.Check(t, cmp.Equal(p.Exit().Code, 1), "the exit of a worker whose runner left")
	ops, err := history.Merge(filepath.Join(dir, "ops-*.jsonl"))
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(ops, 1), "calls made by a worker whose runner left during its first")
	assert.Check(t, cmp.Equal(ops[0].Return, int64(0)), "the call given up was answered: %+v", ops[0])
}

// waitForRecords waits until path holds n lines.
func waitForRecords(t *testing.T, path string, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b, _ := os.ReadFile(path)
		if bytes.Count(b, []byte("\n")) >= n {
			return
		}
	}
	t.Fatalf("%s never held %d lines", path, n)
}
