package torturelab

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// workLeaseMs is the lease of the workers below, on a logical clock.
const workLeaseMs = 100

// stepsWhose returns steps whose first step satisfies want: the first of
// the pause streams, seed by seed, that draws such a step.
func stepsWhose(t *testing.T, want func(step) bool) *steps {
	t.Helper()
	for seed := range uint64(100_000) {
		if want((&steps{r: rand.New(rand.NewPCG(seed, streamPause))}).next(workLeaseMs)) {
			return &steps{r: rand.New(rand.NewPCG(seed, streamPause))}
		}
	}
	t.Fatal("no seed draws such a step")
	return nil
}

// A first step of each kind.
var (
	noPause     = func(s step) bool { return s.PauseMs == 0 }
	renewWithin = func(s step) bool { return !s.PastLease && s.PauseMs > 0 && s.Renew }
	renewPast   = func(s step) bool { return s.PastLease && s.Renew }
	pastNoRenew = func(s step) bool { return s.PastLease && !s.Renew }
)

// seedFailing returns a seed under which msg-1 fails n times (failsAlways
// for every time).
func seedFailing(t *testing.T, n int) int64 {
	t.Helper()
	for seed := range int64(100_000) {
		if failures(seed, 1) == n {
			return seed
		}
	}
	t.Fatalf("no seed makes msg-1 fail %d times", n)
	return 0
}

// workbench is one worker and a ledger of msg-1 and msg-2 on a logical
// clock at 1000, and the records and the history the worker wrote.
type workbench struct {
	w       *tortureWorker
	db      *sqlitedb.DB
	at      *clock.Logical
	path    string
	history string
}

func newWorkbench(t *testing.T, seed int64, st *steps) *workbench {
	t.Helper()
	dir := t.TempDir()
	at := &clock.Logical{}
	at.Set(1000)
	db, _ := newLedger(t, filepath.Join(dir, ledgerFile), at, workLeaseMs, "msg-1", "msg-2")
	// The mailbox reads a clock of its own, as in a worker process: the
	// worker sets it to its own time before each claim.
	boxAt := &clock.Logical{}
	box := mailbox.Open(db, boxAt, workLeaseMs)
	path := filepath.Join(dir, recordFile(0, 1))
	rec, err := createRecorder(path, audit.Log{Owner: "worker-a"})
	assert.NilError(t, err)
	t.Cleanup(func() { rec.close() })
	hpath := filepath.Join(dir, "history.jsonl")
	hist, err := os.Create(hpath)
	assert.NilError(t, err)
	t.Cleanup(func() { hist.Close() })
	w := &tortureWorker{db: db, clk: at, at: boxAt, box: box, hist: history.NewRecorder(hist, historyProcess(0, 1)),
		owner: "worker-a", seed: seed, leaseMs: workLeaseMs, steps: st, rec: rec, from: 1}
	w.pause = func(context.Context, time.Duration) { t.Fatal("a pause the step did not plan") }
	return &workbench{w: w, db: db, at: at, path: path, history: hpath}
}

// records returns what the worker has written so far, without the
// times.
func (b *workbench) records(t *testing.T) []audit.Record {
	t.Helper()
	l, err := readLog(b.path)
	assert.NilError(t, err)
	for i := range l.Records {
		l.Records[i].At = 0
	}
	return l.Records
}

// row reads msg-1's row.
func (b *workbench) row(t *testing.T) mailbox.Message {
	t.Helper()
	m, err := mailbox.Open(b.db, b.at, workLeaseMs).Get(t.Context(), "msg-1")
	assert.NilError(t, err)
	return m
}

var newMsg1 = candidate{rowid: 1, id: "msg-1", state: mailbox.New}

// TestAWorkerClaimsAndCompletes: a message the plan does not fail is
// claimed and completed with the claim's token, and both answers are
// recorded as they came.
func TestAWorkerClaimsAndCompletes(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, noPause))

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	assert.Check(t, cmp.DeepEqual(b.records(t), []audit.Record{
		{Op: "claim", ID: "msg-1", Token: 1, ExpiresAt: 1000 + workLeaseMs, Result: audit.Claimed},
		{Op: "complete", ID: "msg-1", Token: 1, Result: audit.Completed},
	}))
	assert.Check(t, cmp.Equal(b.row(t).State, mailbox.Done))
	l, err := readLog(b.path)
	assert.NilError(t, err)
	for _, rec := range l.Records {
		assert.Check(t, cmp.Equal(rec.At, int64(1000)), "the time of the %s record, on the worker's clock", rec.Op)
	}
}

// history returns the calls the worker has recorded so far, each with
// its answer where one came, without the instants.
func (b *workbench) calls(t *testing.T) []history.Op {
	t.Helper()
	ops, err := history.Merge(b.history)
	assert.NilError(t, err)
	for i := range ops {
		assert.Check(t, ops[i].Return >= ops[i].Call, "call %d returned before it began", i+1)
		ops[i].Call, ops[i].Return = 0, 0
	}
	return ops
}

// TestAWorkersHistoryHoldsEachCallOnTheMailboxAndItsAnswer: the history
// --check linearizable checks has every call the worker made on the
// mailbox (a claim with the time its lease was judged by, a read, the
// dead letter with its verdict, a second claim refused), numbered in
// order, with the answers the mailbox gave.
func TestAWorkersHistoryHoldsEachCallOnTheMailboxAndItsAnswer(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 1), stepsWhose(t, noPause))
	assert.NilError(t, b.w.work(t.Context(), newMsg1))
	b.at.Set(1005)
	_, err := mailbox.Open(b.db, b.at, workLeaseMs).Claim(t.Context(), "msg-1", "worker-b")
	assert.NilError(t, err)
	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	p := historyProcess(0, 1)
	want := []history.Op{
		{Process: p, Seq: 1, Kind: history.Claim, Key: "msg-1", Actor: "worker-a", Now: 1000,
			Out: history.Out{Result: history.OK, Token: 1, Expires: 1000 + workLeaseMs}},
		{Process: p, Seq: 2, Kind: history.Read, Key: "msg-1",
			Out: history.Out{Result: history.OK, State: "CLAIMED", Holder: "worker-a", Token: 1, Expires: 1000 + workLeaseMs}},
		{Process: p, Seq: 3, Kind: history.DeadLetter, Key: "msg-1", Actor: "worker-a", Token: 1,
			Out: history.Out{Result: history.Retried}},
		{Process: p, Seq: 4, Kind: history.Claim, Key: "msg-1", Actor: "worker-a", Now: 1005,
			Out: history.Out{Result: history.Refused, Reason: "lease_held", Holder: "worker-b"}},
	}
	assert.Check(t, cmp.DeepEqual(b.calls(t), want))
}

// TestAFailingAttemptIsDeadLettered: an attempt the plan fails is
// dead-lettered with the claim's token: the first of a message that
// fails once goes back to NEW, one that always fails ends DEAD after its
// retries.
func TestAFailingAttemptIsDeadLettered(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 1), stepsWhose(t, noPause))

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	assert.Check(t, cmp.DeepEqual(b.records(t), []audit.Record{
		{Op: "claim", ID: "msg-1", Token: 1, ExpiresAt: 1000 + workLeaseMs, Result: audit.Claimed},
		{Op: "dead-letter", ID: "msg-1", Token: 1, Result: audit.Retried},
	}))
	row := b.row(t)
	assert.Check(t, cmp.Equal(row.State, mailbox.New))
	assert.Check(t, cmp.Equal(row.RetryCount, 1))

	// The second attempt, read under its own generation, succeeds.
	b.w.steps = stepsWhose(t, noPause)
	assert.NilError(t, b.w.work(t.Context(), newMsg1))
	assert.Check(t, cmp.Equal(b.row(t).State, mailbox.Done), "the second attempt at a message that fails once")
}

// TestAMessageThatAlwaysFailsEndsDead: every attempt at a message the
// plan always fails is dead-lettered, the last one into DEAD.
func TestAMessageThatAlwaysFailsEndsDead(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, failsAlways), nil)
	for range mailbox.MaxRetries + 1 {
		b.w.steps = stepsWhose(t, noPause)
		assert.NilError(t, b.w.work(t.Context(), newMsg1))
	}
	recs := b.records(t)
	assert.Check(t, cmp.Equal(recs[len(recs)-1].Result, audit.DeadLettered))
	assert.Check(t, cmp.Equal(b.row(t).State, mailbox.Dead))
}

// TestARefusedClaimEndsTheWork: a claim another worker's lease refuses
// is recorded with its reason and holder, and nothing else is tried.
func TestARefusedClaimEndsTheWork(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, noPause))
	_, err := mailbox.Open(b.db, b.at, workLeaseMs).Claim(t.Context(), "msg-1", "worker-b")
	assert.NilError(t, err)

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	assert.Check(t, cmp.DeepEqual(b.records(t), []audit.Record{
		{Op: "claim", ID: "msg-1", Result: audit.Refused, Reason: string(mailbox.LeaseHeld), Holder: "worker-b"},
	}))
	assert.Check(t, cmp.Equal(b.row(t).Owner, "worker-b"))
}

// TestATakeoverIsRecordedAsOne: a claim won over a message polled as
// CLAIMED (its lease passed) is recorded as a takeover; one won over a
// NEW message is not.
func TestATakeoverIsRecordedAsOne(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, noPause))
	_, err := mailbox.Open(b.db, b.at, workLeaseMs).Claim(t.Context(), "msg-1", "worker-b")
	assert.NilError(t, err)
	b.at.Set(1000 + workLeaseMs)

	assert.NilError(t, b.w.work(t.Context(), candidate{rowid: 1, id: "msg-1", state: mailbox.Claimed}))

	recs := b.records(t)
	assert.Assert(t, len(recs) > 0)
	assert.Check(t, recs[0].Takeover, "a claim over a lease that passed: %+v", recs[0])
	assert.Check(t, cmp.Equal(recs[0].Token, int64(2)))
}

// TestAPauseWithinTheLeaseRenewsTheSameToken: a worker that pauses within
// its lease and claims again renews it, keeps its token, and completes
// with it; the pause is recorded before it is taken.
func TestAPauseWithinTheLeaseRenewsTheSameToken(t *testing.T) {
	t.Parallel()
	st := stepsWhose(t, renewWithin)
	b := newWorkbench(t, seedFailing(t, 0), st)
	var paused time.Duration
	b.w.pause = func(_ context.Context, d time.Duration) {
		paused = d
		b.at.Set(b.at.Now() + d.Milliseconds())
	}

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	recs := b.records(t)
	assert.Assert(t, cmp.Len(recs, 4), "records: %+v", recs)
	assert.Check(t, cmp.Equal(recs[1].Op, "pause"))
	assert.Check(t, cmp.Equal(time.Duration(recs[1].PauseMs)*time.Millisecond, paused), "the pause recorded and the pause taken")
	assert.Check(t, !recs[1].PastLease)
	assert.Check(t, cmp.Equal(recs[2].Result, audit.Renewed), "the claim after a pause within the lease: %+v", recs[2])
	assert.Check(t, cmp.Equal(recs[3].Token, int64(1)), "the token the complete presents")
	assert.Check(t, cmp.Equal(recs[3].Result, audit.Completed))
}

// TestAPauseWithoutARenewalGoesStraightOn: a pause the plan does not renew
// after is followed by the complete, with the first claim's token.
func TestAPauseWithoutARenewalGoesStraightOn(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, pastNoRenew))
	b.w.pause = func(context.Context, time.Duration) {}

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	recs := b.records(t)
	assert.Assert(t, cmp.Len(recs, 3), "records: %+v", recs)
	assert.Check(t, recs[1].PastLease, "the pause past the lease: %+v", recs[1])
	assert.Check(t, cmp.Equal(recs[2].Op, "complete"))
	assert.Check(t, cmp.Equal(recs[2].Token, int64(1)))
}

// TestAfterATakeoverOfItsOwnTheWorkerReadsTheMessageAgain: during a pause
// past its lease another worker takes the message and fails it once; the
// paused worker's claim again is then a new generation, and it decides
// from the retry count it reads under that generation, not the one it
// read before: a message that fails once is completed now.
func TestAfterATakeoverOfItsOwnTheWorkerReadsTheMessageAgain(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 1), stepsWhose(t, renewPast))
	other := mailbox.Open(b.db, b.at, workLeaseMs)
	b.w.pause = func(_ context.Context, d time.Duration) {
		b.at.Set(b.at.Now() + d.Milliseconds())
		c, err := other.Claim(t.Context(), "msg-1", "worker-b")
		assert.NilError(t, err)
		_, err = other.DeadLetter(t.Context(), "msg-1", c.Token)
		assert.NilError(t, err)
	}

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	recs := b.records(t)
	assert.Assert(t, cmp.Len(recs, 4), "records: %+v", recs)
	assert.Check(t, cmp.Equal(recs[2].Result, audit.Claimed), "the claim after the pause: %+v", recs[2])
	assert.Check(t, cmp.Equal(recs[2].Token, int64(3)), "the new generation's token")
	assert.Check(t, cmp.Equal(recs[3].Op, "complete"), "what the worker did with a message that had failed once already: %+v", recs[3])
	assert.Check(t, cmp.Equal(recs[3].Token, int64(3)))
	assert.Check(t, cmp.Equal(b.row(t).State, mailbox.Done))
}

// TestAClaimAgainThatIsRefusedEndsTheWork: a worker whose message was
// taken during its pause, and is still held, is refused when it claims
// again, and completes nothing.
func TestAClaimAgainThatIsRefusedEndsTheWork(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, renewPast))
	b.w.pause = func(_ context.Context, d time.Duration) {
		b.at.Set(b.at.Now() + d.Milliseconds())
		_, err := mailbox.Open(b.db, b.at, workLeaseMs).Claim(t.Context(), "msg-1", "worker-b")
		assert.NilError(t, err)
	}

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	recs := b.records(t)
	assert.Assert(t, cmp.Len(recs, 3), "records: %+v", recs)
	assert.Check(t, cmp.Equal(recs[2].Result, audit.Refused))
	assert.Check(t, cmp.Equal(recs[2].Holder, "worker-b"))
	assert.Check(t, cmp.Equal(b.row(t).Owner, "worker-b"))
}

// TestAWorkerStopsWhenItsParentIsDone: a worker whose parent is done
// returns at once, without error, before polling.
func TestAWorkerStopsWhenItsParentIsDone(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, 0, nil)
	done := make(chan struct{})
	close(done)
	b.w.stop = done

	assert.NilError(t, b.w.run(t.Context()))
	assert.Check(t, cmp.Equal(b.w.polls, 0))
}

// TestAnInterruptedWorkerStops: an interrupt stops the worker with its
// error, even while its polls fail.
func TestAnInterruptedWorkerStops(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, 0, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	assert.ErrorIs(t, b.w.run(ctx), context.Canceled)
}

// TestAFailedPollIsRecordedAndTheWorkerGoesOn: a poll that fails is a
// record, and the worker waits and polls again, as a real one would.
func TestAFailedPollIsRecordedAndTheWorkerGoesOn(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, 0, nil)
	assert.NilError(t, b.db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(t.Context(), "DROP TABLE messages")
		return err
	}))
	stop := make(chan struct{})
	b.w.stop = stop
	ran := make(chan error, 1)
	go func() { ran <- b.w.run(t.Context()) }()

	deadline := time.Now().Add(10 * time.Second)
	for len(b.records(t)) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	assert.NilError(t, <-ran)

	recs := b.records(t)
	assert.Assert(t, len(recs) >= 2, "records of failed polls: %+v", recs)
	assert.Check(t, cmp.Equal(recs[0].Op, "poll"))
	assert.Check(t, cmp.Equal(recs[0].Result, audit.Failed))
	assert.Check(t, cmp.Contains(recs[0].Error, "no such table"))
}

// cancelling is a clock that cancels a context when it is read: a poll
// that reads it runs its query after the interrupt.
type cancelling struct {
	clock.Logical
	cancel context.CancelFunc
}

func (c *cancelling) Now() int64 {
	c.cancel()
	return c.Logical.Now()
}

// TestAPollCutShortByAnInterruptIsNoFailure: a poll that fails because the
// run was interrupted stops the worker with the interrupt, and is not
// recorded as a failed call.
func TestAPollCutShortByAnInterruptIsNoFailure(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, 0, nil)
	ctx, cancel := context.WithCancel(t.Context())
	b.w.clk = &cancelling{cancel: cancel}

	assert.ErrorIs(t, b.w.run(ctx), context.Canceled)
	assert.Check(t, cmp.Len(b.records(t), 0), "records of an interrupted poll")
}

// TestAWorkerThatCannotOpenItsFilesFails: a torture worker whose ledger
// cannot be opened, or whose record or history file is already there
// (another process's), stops at once with an error and writes nothing
// into another process's file.
func TestAWorkerThatCannotOpenItsFilesFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	taken := filepath.Join(dir, recordFile(0, 1))
	assert.NilError(t, os.WriteFile(taken, []byte("someone else's\n"), 0o644))
	for name, a := range map[string]workerArgs{
		"ledger-is-a-folder": {Ledger: dir, Records: filepath.Join(dir, recordFile(1, 1)), Owner: "worker-b", LeaseMs: 40},
		"records-taken":      {Ledger: filepath.Join(dir, ledgerFile), Records: taken, Owner: "worker-a", LeaseMs: 40},
		"history-taken": {Ledger: filepath.Join(dir, ledgerFile), Records: filepath.Join(dir, recordFile(2, 1)),
			History: taken, Owner: "worker-c", LeaseMs: 40},
	} {
		err := runWorker(t.Context(), a.encode(), nil)
		assert.Check(t, err != nil, "%s: the worker ran", name)
	}
	got, err := os.ReadFile(taken)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(string(got), "someone else's\n"), "the other process's records or history")
	_, err = os.Stat(filepath.Join(dir, recordFile(1, 1)))
	assert.Check(t, errors.Is(err, fs.ErrNotExist), "records of a worker without a ledger: %v", err)
}

// onReading is the worker's clock, which calls do at its n-th reading.
// The worker reads its clock once for each record, just before writing
// it, and once just before each claim, for the claim's time: so do comes
// between the n-th call and its record, or just before a claim.
type onReading struct {
	*clock.Logical
	n  int
	do func()
}

func (c *onReading) Now() int64 {
	if c.n--; c.n == 0 {
		c.do()
	}
	return c.Logical.Now()
}

// TestAWorkerGoesNoFurtherThanItsLastRecord: a worker that cannot record
// an answer stops there with an error: it neither pauses after a claim it
// could not record, nor completes a message whose claim or claim again it
// could not record. What the ledger holds is then what the records say,
// and one call more at most.
func TestAWorkerGoesNoFurtherThanItsLastRecord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		first      func(step) bool
		breakAt    int
		wantPaused bool
	}{
		{"the claim", noPause, 2, false},
		{"the pause", renewWithin, 3, false},
		{"the claim again", renewWithin, 5, true},
	} {
		b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, tc.first))
		b.w.clk = &onReading{Logical: b.at, n: tc.breakAt, do: func() { b.w.rec.close() }}
		paused := false
		b.w.pause = func(context.Context, time.Duration) { paused = true }

		err := b.w.work(t.Context(), newMsg1)

		assert.Check(t, cmp.ErrorContains(err, "record:"), "%s could not be recorded", tc.name)
		assert.Check(t, cmp.Equal(paused, tc.wantPaused), "%s could not be recorded: paused", tc.name)
		assert.Check(t, cmp.Equal(b.row(t).State, mailbox.Claimed), "%s could not be recorded: msg-1's state", tc.name)
	}
}

// failingOnce is a history file that takes n lines, fails the next, and
// takes every line after it: a worker that went on after the failure
// would leave its calls in the file.
type failingOnce struct{ n int }

func (f *failingOnce) Write(p []byte) (int, error) {
	f.n--
	if f.n == -1 {
		return 0, errors.New("the history's disk is full")
	}
	return len(p), nil
}

// TestAWorkerGoesNoFurtherThanItsHistory: a worker that cannot write a
// line of its history stops there with the error: a call whose first line
// could not be written is not made, and no call follows one whose answer
// could not be written. The history then holds every call the mailbox
// saw, which is what its check needs.
func TestAWorkerGoesNoFurtherThanItsHistory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		failures int // how many times the plan fails msg-1
		first    func(step) bool
		lines    int // the lines written before the one that fails
		want     mailbox.State
	}{
		{"the claim's call", 0, noPause, 0, mailbox.New},
		{"the claim's answer", 0, noPause, 1, mailbox.Claimed},
		{"the read's call", 0, noPause, 2, mailbox.Claimed},
		{"the read's answer", 0, noPause, 3, mailbox.Claimed},
		{"the completion's call", 0, noPause, 4, mailbox.Claimed},
		{"the completion's answer", 0, noPause, 5, mailbox.Done},
		{"the dead letter's call", 1, noPause, 4, mailbox.Claimed},
		{"the dead letter's answer", 1, noPause, 5, mailbox.New},
		// Past its lease the worker takes msg-1 over itself, with a new
		// token, and reads it again.
		{"the claim again's call", 0, renewPast, 4, mailbox.Claimed},
		{"the second read's call", 0, renewPast, 6, mailbox.Claimed},
		{"the second read's answer", 0, renewPast, 7, mailbox.Claimed},
	} {
		b := newWorkbench(t, seedFailing(t, tc.failures), stepsWhose(t, tc.first))
		b.w.hist = history.NewRecorder(&failingOnce{n: tc.lines}, 1)
		b.w.pause = func(_ context.Context, d time.Duration) { b.at.Set(b.at.Now() + d.Milliseconds()) }

		err := b.w.work(t.Context(), newMsg1)

		assert.Check(t, cmp.ErrorContains(err, "the history's disk is full"), "%s could not be written", tc.name)
		assert.Check(t, cmp.Equal(b.row(t).State, tc.want), "%s could not be written: msg-1's state", tc.name)
	}
}

// TestAWorkerWhoseRecordsFailStopsRunning: a worker stops running, with
// an error, at the first record it cannot write: one of a failed poll, or
// of a claim.
func TestAWorkerWhoseRecordsFailStopsRunning(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"a failed poll", "a claim"} {
		b := newWorkbench(t, 0, stepsWhose(t, noPause))
		b.w.pick = rand.New(rand.NewPCG(1, 2))
		if name == "a failed poll" {
			assert.NilError(t, b.db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
				_, err := tx.Exec(t.Context(), "DROP TABLE messages")
				return err
			}))
		}
		assert.NilError(t, b.w.rec.close())
		// A worker that went on would idle until its parent is done.
		stop := make(chan struct{})
		b.w.stop = stop
		timer := time.AfterFunc(time.Second, func() { close(stop) })

		err := b.w.run(t.Context())

		timer.Stop()
		assert.Check(t, cmp.ErrorContains(err, "record:"), "a worker that could not record %s", name)
	}
}

// TestAnIdleWorkerWaitsBetweenPolls: a worker that finds nothing to claim
// waits its idle time before it polls again, instead of spinning on the
// ledger: in 100 ms at 20 ms a wait, a handful of polls.
func TestAnIdleWorkerWaitsBetweenPolls(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, 0, nil)
	b.w.leaseMs = 80
	other := mailbox.Open(b.db, b.at, workLeaseMs)
	for _, id := range []string{"msg-1", "msg-2"} {
		_, err := other.Claim(t.Context(), id, "worker-b")
		assert.NilError(t, err)
	}
	stop := make(chan struct{})
	b.w.stop = stop
	time.AfterFunc(100*time.Millisecond, func() { close(stop) })

	assert.NilError(t, b.w.run(t.Context()))

	assert.Check(t, b.w.polls >= 1 && b.w.polls <= 10, "an idle worker polled %d times in 100 ms", b.w.polls)
	assert.Check(t, cmp.Len(b.records(t), 0))
}

// TestAClaimThatFailsIsNotWon: a claim whose call failed (here cut short
// by an interrupt) is recorded as failed and is not won: the worker does
// not go on with the message.
func TestAClaimThatFailsIsNotWon(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, 0, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	_, won, err := b.w.claim(ctx, "msg-1", false)

	assert.NilError(t, err, "the failure could be recorded")
	assert.Check(t, !won, "a claim whose call failed was taken as won")
	recs := b.records(t)
	assert.Assert(t, cmp.Len(recs, 1))
	assert.Check(t, cmp.Equal(recs[0].Result, audit.Failed))
	assert.Check(t, cmp.Equal(b.row(t).State, mailbox.New))
}

// TestAReadThatFailsEndsTheWork: a worker that cannot read the message
// it has just won (here the run is interrupted as the claim is recorded)
// records the failed read and goes no further: no pause, no complete. So
// does one that cannot read it again after its own takeover.
func TestAReadThatFailsEndsTheWork(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		first     func(step) bool
		cutAt     int
		wantPause bool
	}{
		{"the read after the claim", renewPast, 2, false},
		{"the read after the takeover", renewPast, 5, true},
	} {
		b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, tc.first))
		ctx, cancel := context.WithCancel(t.Context())
		b.w.clk = &onReading{Logical: b.at, n: tc.cutAt, do: cancel}
		paused := false
		b.w.pause = func(_ context.Context, d time.Duration) {
			paused = true
			b.at.Set(b.at.Now() + d.Milliseconds())
		}

		assert.NilError(t, b.w.work(ctx, newMsg1), tc.name)

		recs := b.records(t)
		assert.Assert(t, len(recs) > 0, tc.name)
		last := recs[len(recs)-1]
		assert.Check(t, cmp.Equal(last.Op, "read"), "%s: the last record: %+v", tc.name, last)
		assert.Check(t, cmp.Equal(last.Result, audit.Failed), "%s: the last record: %+v", tc.name, last)
		assert.Check(t, cmp.Equal(paused, tc.wantPause), "%s: paused", tc.name)
		assert.Check(t, cmp.Equal(b.row(t).State, mailbox.Claimed), "%s: msg-1's state", tc.name)
		calls := b.calls(t)
		assert.Assert(t, len(calls) > 0, tc.name)
		lastCall := calls[len(calls)-1]
		assert.Check(t, cmp.Equal(lastCall.Kind, history.Read), "%s: the history's last call", tc.name)
		assert.Check(t, cmp.Equal(lastCall.Out.Result, history.Unknown), "%s: a failed read is recorded with no answer", tc.name)
	}
}

// TestAWorkersHistoryRecordsARefusalAndAFailureAsTheyCame: a dead letter
// or a completion under a token a takeover made stale is recorded
// refused, with its reason, in the history and in the worker's records;
// one cut short by an interrupt is recorded with no answer, which the
// check reads as a call that may have taken effect or not.
func TestAWorkersHistoryRecordsARefusalAndAFailureAsTheyCame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		failures  int // 1: the attempt fails, and ends in a dead letter
		interrupt bool
		op        history.Kind
		want      history.Out
		record    string // the result the worker's record gives
	}{
		{"a dead letter refused", 1, false, history.DeadLetter, history.Out{Result: history.Refused, Reason: "stale_token"}, audit.Refused},
		{"a dead letter interrupted", 1, true, history.DeadLetter, history.Out{Result: history.Unknown}, audit.Failed},
		{"a completion refused", 0, false, history.Complete, history.Out{Result: history.Refused, Reason: "stale_token"}, audit.Refused},
		{"a completion interrupted", 0, true, history.Complete, history.Out{Result: history.Unknown}, audit.Failed},
	} {
		b := newWorkbench(t, seedFailing(t, tc.failures), stepsWhose(t, pastNoRenew))
		ctx, cancel := context.WithCancel(t.Context())
		b.w.pause = func(_ context.Context, d time.Duration) {
			b.at.Set(b.at.Now() + d.Milliseconds())
			if tc.interrupt {
				cancel()
				return
			}
			_, err := mailbox.Open(b.db, b.at, workLeaseMs).Claim(t.Context(), "msg-1", "worker-b")
			assert.NilError(t, err, "worker-b's takeover")
		}

		assert.NilError(t, b.w.work(ctx, newMsg1), tc.name)
		cancel()

		calls := b.calls(t)
		assert.Assert(t, len(calls) > 0, tc.name)
		last := calls[len(calls)-1]
		assert.Check(t, cmp.Equal(last.Kind, tc.op), "%s: the history's last call", tc.name)
		assert.Check(t, cmp.DeepEqual(last.Out, tc.want), "%s: the answer in the history", tc.name)
		recs := b.records(t)
		assert.Assert(t, len(recs) > 0, tc.name)
		rec := recs[len(recs)-1]
		assert.Check(t, cmp.Equal(rec.Op, string(tc.op)), "%s: the last record", tc.name)
		assert.Check(t, cmp.Equal(rec.Result, tc.record), "%s: the answer in the record", tc.name)
		assert.Check(t, cmp.Equal(rec.Reason, tc.want.Reason), "%s: the reason in the record", tc.name)
	}
}

// TestEvenAOneMillisecondPauseIsTaken: a step that pauses for 1 ms is a
// pause like any other: recorded, and waited.
func TestEvenAOneMillisecondPauseIsTaken(t *testing.T) {
	t.Parallel()
	b := newWorkbench(t, seedFailing(t, 0), stepsWhose(t, func(s step) bool { return s.PauseMs == 1 && !s.Renew }))
	var paused time.Duration
	b.w.pause = func(_ context.Context, d time.Duration) { paused = d }

	assert.NilError(t, b.w.work(t.Context(), newMsg1))

	recs := b.records(t)
	assert.Assert(t, cmp.Len(recs, 3), "records: %+v", recs)
	assert.Check(t, cmp.DeepEqual(recs[1], audit.Record{Op: "pause", ID: "msg-1", Token: 1, PauseMs: 1}))
	assert.Check(t, cmp.Equal(paused, time.Millisecond))
}
