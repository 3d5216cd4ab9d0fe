package torturelab

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// body is what a test's worker does instead of the torture worker's
// loop, with the arguments the coordinator handed it.
type body func(ctx context.Context, a workerArgs, link *worker.Link) error

// inProcess returns a Starter that runs do on a goroutine of the test for
// every worker the coordinator starts, and sends the arguments of each
// start on starts, in order.
func inProcess(do body, starts chan<- workerArgs) worker.Starter {
	return func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		var a workerArgs
		if err := json.Unmarshal([]byte(args[0]), &a); err != nil {
			return nil, err
		}
		if starts != nil {
			starts <- a
		}
		role := worker.Role{Name: r.Name, Run: func(ctx context.Context, _ []string, link *worker.Link) error { return do(ctx, a, link) }}
		return worker.StartInProcess(ctx, role, args...)
	}
}

// idle is a worker that claims nothing and waits until its parent is done
// with it, or it is killed.
func idle(ctx context.Context, _ workerArgs, link *worker.Link) error {
	select {
	case <-link.PeerClosed():
	case <-ctx.Done():
	}
	return nil
}

// startedRun starts the coordinator of plan in a new folder, with a
// ledger of messages messages, and returns it and a connection of the
// test's own to its ledger. The test stops its workers at the end.
func startedRun(t *testing.T, plan runPlan, messages int, start worker.Starter) (*coordinator, *sqlitedb.DB) {
	t.Helper()
	c := newCoordinator(plan, t.TempDir(), start)
	c.stall = 5 * time.Second // a test that goes wrong ends stalled, soon
	db, err := sqlitedb.Open(t.Context(), c.ledger)
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	c.db = db
	_, err = fill(t.Context(), db, messages)
	assert.NilError(t, err)
	assert.NilError(t, os.Mkdir(c.records, 0o755))
	assert.NilError(t, c.start(t.Context()))
	t.Cleanup(func() { c.crew.Stop() })
	return c, db
}

// nextStart returns the arguments of the next worker started.
func nextStart(t *testing.T, starts <-chan workerArgs) workerArgs {
	t.Helper()
	select {
	case a := <-starts:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no worker started within 10 s")
		return workerArgs{}
	}
}

// answered waits for drive's answer, for at most 10 s.
func answered(t *testing.T, answer <-chan drove) drove {
	t.Helper()
	select {
	case d := <-answer:
		return d
	case <-time.After(10 * time.Second):
		t.Fatal("drive did not end within 10 s")
		return drove{}
	}
}

// drove is what drive returned.
type drove struct {
	ended string
	err   error
}

// driveAway runs c.drive on a goroutine and returns where its answer
// will come.
func driveAway(ctx context.Context, c *coordinator) <-chan drove {
	out := make(chan drove, 1)
	go func() {
		ended, err := c.drive(ctx)
		out <- drove{ended, err}
	}()
	return out
}

// twoIdleSlots is a plan of two slots and three messages, killing
// worker-b once the counter has handed out two tokens and worker-a2 once
// it has handed out five.
func twoIdleSlots() runPlan {
	return runPlan{Seed: 1, LeaseMs: 40, processes: 2, Owners: []string{"worker-a", "worker-b", "worker-b2", "worker-a"},
		Kills: []plannedKill{
			{AfterClaims: 2, Worker: "worker-b", RestartAs: "worker-b2", slot: 1, start: 2},
			{AfterClaims: 5, Worker: "worker-a", RestartAs: "worker-a", slot: 0, start: 2},
		}}
}

// claimAndComplete claims and completes id as the test, which mints one
// token.
func claimAndComplete(t *testing.T, db *sqlitedb.DB, id string) {
	t.Helper()
	box := mailbox.Open(db, clock.Wall{}, 60_000)
	c, err := box.Claim(t.Context(), id, "test")
	assert.NilError(t, err)
	assert.NilError(t, box.Complete(t.Context(), id, "test", c.Token))
}

// TestAKillComesOnceItsClaimsHaveBeenMinted: no kill comes before the
// token counter reaches the plan's number of claims; then the process
// the plan names is replaced by one under the name the plan gives, with
// the slot's next start. The run ends when every message is DONE or
// DEAD, with the kills that came by then.
func TestAKillComesOnceItsClaimsHaveBeenMinted(t *testing.T) {
	t.Parallel()
	starts := make(chan workerArgs, 8)
	c, db := startedRun(t, twoIdleSlots(), 3, inProcess(idle, starts))
	first := []workerArgs{nextStart(t, starts), nextStart(t, starts)}
	assert.Check(t, cmp.Equal(first[0].Owner, "worker-a"))
	assert.Check(t, cmp.Equal(first[1].Owner, "worker-b"))
	assert.Check(t, cmp.Equal(first[1].Records, filepath.Join(c.records, recordFile(1, 1))), "worker-b's record file")
	answer := driveAway(t.Context(), c)

	claimAndComplete(t, db, "msg-1") // token 1: one short of the first kill
	select {
	case a := <-starts:
		t.Fatalf("a worker was started after one claim, before the plan's two: %+v", a)
	case <-time.After(20 * tick):
	}
	claimAndComplete(t, db, "msg-2") // token 2
	a := nextStart(t, starts)
	assert.Check(t, cmp.Equal(a.Owner, "worker-b2"), "the replacement's name")
	assert.Check(t, cmp.Equal(a.Slot, 1), "the replacement's slot")
	assert.Check(t, cmp.Equal(a.Start, 2), "the replacement's start")
	assert.Check(t, cmp.Equal(a.Records, filepath.Join(c.records, recordFile(1, 2))), "the replacement's record file")
	assert.Check(t, cmp.Equal(a.LeaseMs, int64(40)))
	claimAndComplete(t, db, "msg-3") // token 3: every message DONE, the second kill never armed

	got := answered(t, answer)
	assert.NilError(t, got.err)
	assert.Check(t, cmp.Equal(got.ended, "every message DONE or DEAD"))
	assert.Check(t, cmp.Equal(c.kills, 1), "kills made")
	assert.Check(t, cmp.Len(c.killedAt, 1), "kills drawn")
	assert.Check(t, cmp.Equal(c.killedAt[0].worker, "worker-b"))
	assert.Check(t, cmp.Equal(c.killedAt[0].restartAs, "worker-b2"))
	assert.Check(t, cmp.Equal(c.killedAt[0].slot, 1))
	assert.Check(t, cmp.Len(starts, 0), "workers started after the last message ended")
}

// TestAKillWaitsItsDelayOnceArmed: once its claims are minted, a kill
// still waits the plan's delay.
func TestAKillWaitsItsDelayOnceArmed(t *testing.T) {
	t.Parallel()
	plan := twoIdleSlots()
	plan.Kills = plan.Kills[:1]
	plan.Kills[0].AfterClaims, plan.Kills[0].DelayMs = 0, 300
	starts := make(chan workerArgs, 8)
	c, _ := startedRun(t, plan, 1, inProcess(idle, starts))
	nextStart(t, starts)
	nextStart(t, starts)
	began := time.Now()
	ctx, cancel := context.WithCancel(t.Context())
	answer := driveAway(ctx, c)

	nextStart(t, starts)
	waited := time.Since(began)
	cancel()
	answered(t, answer)
	assert.Check(t, waited >= 300*time.Millisecond, "the kill came %v after it was armed; the plan says 300 ms", waited)
}

// TestEveryKillArmedComesInOrder: kills armed together come one
// after another, in the plan's order, each on its own slot.
func TestEveryKillArmedComesInOrder(t *testing.T) {
	t.Parallel()
	plan := twoIdleSlots()
	plan.Kills[1].AfterClaims = 0
	plan.Kills[0].AfterClaims = 0
	starts := make(chan workerArgs, 8)
	c, db := startedRun(t, plan, 1, inProcess(idle, starts))
	nextStart(t, starts)
	nextStart(t, starts)
	answer := driveAway(t.Context(), c)

	second, third := nextStart(t, starts), nextStart(t, starts)
	claimAndComplete(t, db, "msg-1")
	got := answered(t, answer)

	assert.NilError(t, got.err)
	assert.Check(t, cmp.Equal(second.Owner, "worker-b2"))
	assert.Check(t, cmp.Equal(third.Owner, "worker-a"))
	assert.Check(t, cmp.Equal(third.Start, 2))
	assert.Check(t, cmp.Equal(c.kills, 2))
}

// TestARunThatStopsMovingEndsStalled: when no message ends for the stall
// limit, the run stops waiting and says how many are open; a message
// that ends meanwhile starts the wait again.
func TestARunThatStopsMovingEndsStalled(t *testing.T) {
	t.Parallel()
	plan := twoIdleSlots()
	plan.Kills = nil
	c, db := startedRun(t, plan, 3, inProcess(idle, nil))
	c.stall = 400 * time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	began := time.Now()
	answer := driveAway(ctx, c)

	time.Sleep(250 * time.Millisecond) // well inside the first wait
	claimAndComplete(t, db, "msg-1")
	got := answered(t, answer)

	assert.NilError(t, got.err)
	assert.Check(t, cmp.Equal(got.ended, "stalled: 2 messages still open, and none ended for 400ms"))
	assert.Check(t, time.Since(began) >= 650*time.Millisecond, "the run gave up %v after it began; msg-1 ended 250 ms in, so not before 650 ms", time.Since(began))
}

// TestAWorkerThatEndsByItselfFailsTheRun: a worker ends only when the
// coordinator kills it or is done with it; one that ends by itself
// mid-run (a crash) fails the run, named with its exit status, and so
// does a replacement that does.
func TestAWorkerThatEndsByItselfFailsTheRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, quits, mention string
		kills                bool
	}{
		{"first", "worker-b", "worker-b (pid", false},
		{"replacement", "worker-b2", "worker-b2 (pid", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			plan := twoIdleSlots()
			plan.Kills[0].AfterClaims = 0
			if !tc.kills {
				plan.Kills = nil
			}
			quitter := func(ctx context.Context, a workerArgs, link *worker.Link) error {
				if a.Owner == tc.quits {
					return nil
				}
				return idle(ctx, a, link)
			}
			c, _ := startedRun(t, plan, 1, inProcess(quitter, nil))

			_, err := c.drive(t.Context())

			assert.ErrorContains(t, err, tc.mention)
			assert.ErrorContains(t, err, "ended by itself during the run (exit status 0)")
		})
	}
}

// TestAReplacementThatCannotStartFailsTheRun: a kill whose replacement
// cannot start fails the run.
func TestAReplacementThatCannotStartFailsTheRun(t *testing.T) {
	t.Parallel()
	plan := twoIdleSlots()
	plan.Kills[0].AfterClaims = 0
	broken := errors.New("no more processes")
	first := inProcess(idle, nil)
	started := 0
	start := func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		if started++; started > 2 {
			return nil, broken
		}
		return first(ctx, r, args...)
	}
	c, _ := startedRun(t, plan, 1, start)

	_, err := c.drive(t.Context())

	assert.ErrorIs(t, err, broken)
}

// TestAnInterruptedRunStopsDriving: an interrupt ends drive with its
// error, however the run stood.
func TestAnInterruptedRunStopsDriving(t *testing.T) {
	t.Parallel()
	c, _ := startedRun(t, twoIdleSlots(), 3, inProcess(idle, nil))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	_, err := c.drive(ctx)

	assert.ErrorIs(t, err, context.Canceled)
}

// TestALedgerThatCannotBeCountedFailsTheRun: a coordinator that cannot
// read the token counter (to arm a kill) or count the open messages
// (to end) fails, saying which.
func TestALedgerThatCannotBeCountedFailsTheRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, drop, mention string
		kills               bool
	}{
		{"tokens", "lease_tokens", "read the token counter", true},
		{"messages", "messages", "count open messages", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			plan := twoIdleSlots()
			if !tc.kills {
				plan.Kills = nil
			}
			c, db := startedRun(t, plan, 1, inProcess(idle, nil))
			assert.NilError(t, db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
				_, err := tx.Exec(t.Context(), "DROP TABLE "+tc.drop)
				return err
			}))

			_, err := c.drive(t.Context())

			assert.ErrorContains(t, err, tc.mention)
		})
	}
}

// TestAWholeRunInProcessAuditsClean: the coordinator, the torture
// worker's own loop (on goroutines instead of processes) and the audit
// together: every message ends DONE or DEAD as the plan says, every
// worker's records are read, and the audit finds nothing.
func TestAWholeRunInProcessAuditsClean(t *testing.T) {
	t.Parallel()
	const messages = 60
	plan := newPlan(9, 3, messages, 2, 40)
	dir := t.TempDir()

	page := filepath.Join(dir, "history.html")
	res, err := newCoordinator(plan, dir, worker.StartInProcess).run(t.Context(), messages, historyCheck{on: true, page: page})

	assert.NilError(t, err)
	assert.Assert(t, res.Check != nil, "--check linearizable: the run's JSON has no check")
	assert.Check(t, cmp.Equal(res.Check.Linearizable, any(true)), "the mailbox's history of calls checked linearizable")
	// Each message: a claim, a read and its end at least.
	assert.Check(t, res.Check.Operations >= 3*messages, "operations checked: %d", res.Check.Operations)
	_, err = os.Stat(page)
	assert.Check(t, err == nil, "the page of the checked history: %v", err)
	assert.Check(t, cmp.Equal(res.Ended, "every message DONE or DEAD"))
	assert.Check(t, res.Audit.Clean(), "the audit: %+v", res.Audit)
	assert.Check(t, cmp.Equal(res.Completes+res.DeadLetters, messages))
	assert.Check(t, cmp.Equal(res.DeadLetters, plan.Failing.Always), "messages that always fail end DEAD")
	assert.Check(t, cmp.Equal(res.Retries, plan.Failing.Once+2*plan.Failing.Twice+mailbox.MaxRetries*plan.Failing.Always))
	assert.Check(t, res.Claims >= messages, "claims: %d", res.Claims)
	assert.Check(t, cmp.Equal(res.Records.Processes, 3+res.Killed), "record files: one per worker started")
	assert.Check(t, res.Killed <= 2, "kills: %d", res.Killed)
	assert.Check(t, res.story.endedMs >= res.story.beganMs, "the picture's span")
	assert.Check(t, cmp.Len(res.story.kills, res.Killed))
	// SQLite removes the write-ahead log when the last connection to the
	// ledger closes: the run and every worker closed theirs.
	for _, left := range []string{ledgerFile + "-wal", ledgerFile + "-shm"} {
		_, err := os.Stat(filepath.Join(dir, left))
		assert.Check(t, errors.Is(err, fs.ErrNotExist), "%s after the run: the ledger was left open (%v)", left, err)
	}
	info, err := os.Stat(filepath.Join(dir, recordsDir))
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(info.Mode().Perm(), 0o755&^umask(t)), "the records folder's mode")
	histories, err := filepath.Glob(filepath.Join(dir, historyDir, "*.jsonl"))
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(histories, res.Records.Processes), "history files: one per worker started")
	for _, name := range histories {
		info, err := os.Stat(name)
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(info.Mode().Perm(), 0o644&^umask(t)), "%s's mode", filepath.Base(name))
	}
}

// TestAHistoryWithNoOrderIsAFindingEvenWithACleanAudit: a run whose audit
// is clean but whose history has no order (here worker-b writes a read
// that names a holder who never claimed msg-1) returns its result and a
// finding: exit status 1, the JSON printed, the line saying why.
func TestAHistoryWithNoOrderIsAFindingEvenWithACleanAudit(t *testing.T) {
	t.Parallel()
	plan := newPlan(1, 2, 1, 0, 40)
	impossible := `{"process":99,"seq":1,"op":"read","key":"msg-1","call":1,"return":2,"out":{"result":"ok","state":"DONE","holder":"nobody"}}` + "\n"
	teller := func(ctx context.Context, a workerArgs, link *worker.Link) error {
		if a.Owner == "worker-b" {
			if err := os.WriteFile(a.History, []byte(impossible), 0o644); err != nil {
				return err
			}
			return idle(ctx, a, link)
		}
		return runWorker(ctx, a.encode(), link)
	}

	res, err := newCoordinator(plan, t.TempDir(), inProcess(teller, nil)).run(t.Context(), 1, historyCheck{on: true})

	var finding *cli.Finding
	assert.Assert(t, errors.As(err, &finding), "the run's error: %v", err)
	assert.Check(t, cmp.ErrorContains(err, "the mailbox's history of calls is not linearizable"))
	assert.Assert(t, res != nil && res.Check != nil, "a run with a finding keeps its result and its check")
	assert.Check(t, res.Audit.Clean(), "the audit: %+v", res.Audit)
	assert.Check(t, cmp.Equal(res.Check.Linearizable, any(false)))
}

// TestARunWhosePageCannotBeWrittenFails: --visualize to a folder that is
// not there fails the run with the path, after the workers have stopped.
func TestARunWhosePageCannotBeWrittenFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := filepath.Join(dir, "missing", "h.html")

	_, err := newCoordinator(newPlan(1, 2, 3, 0, 40), dir, worker.StartInProcess).run(t.Context(), 3, historyCheck{on: true, page: page})

	assert.Check(t, cmp.ErrorContains(err, page))
}

// TestARunWhoseLedgerCannotBeFilledFails: a ledger that cannot take the
// run's messages (here one already holds msg-1) fails the run with the
// message it could not add, before any worker starts.
func TestARunWhoseLedgerCannotBeFilledFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	newLedger(t, filepath.Join(dir, ledgerFile), clock.Wall{}, 40, "msg-2")
	started := 0
	start := func(context.Context, worker.Role, ...string) (*worker.Process, error) {
		started++
		return nil, errors.New("no worker may start")
	}

	_, err := newCoordinator(newPlan(1, 2, 3, 0, 40), dir, start).run(t.Context(), 3, historyCheck{})

	assert.Check(t, cmp.ErrorContains(err, "add msg-2"))
	assert.Check(t, cmp.Equal(started, 0), "workers started")
}

// TestARunThatCannotStartFails: each step before the workers run fails
// the run, with nothing started: a folder that already has records, a
// ledger that cannot be opened, workers that cannot start.
func TestARunThatCannotStartFails(t *testing.T) {
	t.Parallel()
	broken := errors.New("cannot start")
	for _, tc := range []struct {
		name    string
		prepare func(dir string) error
		start   worker.Starter
		want    error
	}{
		{"records-there", func(dir string) error { return os.Mkdir(filepath.Join(dir, recordsDir), 0o755) }, worker.StartInProcess, os.ErrExist},
		{"ledger-is-a-folder", func(dir string) error { return os.Mkdir(filepath.Join(dir, ledgerFile), 0o755) }, worker.StartInProcess, nil},
		{"ledger-is-no-database", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ledgerFile), []byte(strings.Repeat("not a database\n", 100)), 0o644)
		}, worker.StartInProcess, nil},
		{"workers-cannot-start", func(string) error { return nil },
			func(context.Context, worker.Role, ...string) (*worker.Process, error) { return nil, broken }, broken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			assert.NilError(t, tc.prepare(dir))

			res, err := newCoordinator(newPlan(1, 2, 3, 0, 40), dir, tc.start).run(t.Context(), 3, historyCheck{})

			assert.Assert(t, err != nil, "the run succeeded")
			if tc.want != nil {
				assert.ErrorIs(t, err, tc.want)
			}
			assert.Check(t, res == nil, "a failed run's result: %+v", res)
		})
	}
}

// TestAWorkerThatEndsBadlyFailsTheRun: a worker that, told the run is
// over, exits with an error fails the run: its records may be cut short.
func TestAWorkerThatEndsBadlyFailsTheRun(t *testing.T) {
	t.Parallel()
	plan := newPlan(1, 2, 1, 0, 40)
	bad := func(ctx context.Context, a workerArgs, link *worker.Link) error {
		if a.Owner != "worker-b" {
			return runWorker(ctx, a.encode(), link)
		}
		_ = idle(ctx, a, link)
		return errors.New("could not flush")
	}

	_, err := newCoordinator(plan, t.TempDir(), inProcess(bad, nil)).run(t.Context(), 1, historyCheck{})

	assert.ErrorContains(t, err, "stopping the workers")
}

// TestAGarbledRecordFailsTheRun: a record file that is not what a
// worker writes fails the run instead of being audited.
func TestAGarbledRecordFailsTheRun(t *testing.T) {
	t.Parallel()
	plan := newPlan(1, 2, 1, 0, 40)
	garbling := func(ctx context.Context, a workerArgs, link *worker.Link) error {
		if a.Owner == "worker-b" {
			if err := os.WriteFile(a.Records, []byte("not a record\n"), 0o644); err != nil {
				return err
			}
			return idle(ctx, a, link)
		}
		return runWorker(ctx, a.encode(), link)
	}

	_, err := newCoordinator(plan, t.TempDir(), inProcess(garbling, nil)).run(t.Context(), 1, historyCheck{})

	assert.ErrorContains(t, err, recordFile(1, 1)+": first line")
}

// TestARunWithAViolationReportsIt: a run whose audit finds a violation
// returns its result and a finding (exit status 1, the JSON printed), not
// success.
func TestARunWithAViolationReportsIt(t *testing.T) {
	t.Parallel()
	plan := newPlan(1, 2, 1, 0, 40)
	// worker-a completes msg-1; worker-b records that it completed it
	// too, with a token it was never given.
	liar := func(ctx context.Context, a workerArgs, link *worker.Link) error {
		if a.Owner == "worker-b" {
			rec, err := createRecorder(a.Records, audit.Log{Owner: a.Owner, Slot: a.Slot, Start: a.Start})
			if err != nil {
				return err
			}
			defer rec.close()
			if err := rec.write(audit.Record{Op: "complete", ID: "msg-1", Token: 99, Result: audit.Completed, At: clock.Wall{}.Now()}); err != nil {
				return err
			}
			return idle(ctx, a, link)
		}
		return runWorker(ctx, a.encode(), link)
	}

	res, err := newCoordinator(plan, t.TempDir(), inProcess(liar, nil)).run(t.Context(), 1, historyCheck{})

	var finding *cli.Finding
	assert.Assert(t, errors.As(err, &finding), "the run's error: %v", err)
	assert.Assert(t, res != nil, "a run with a violation keeps its result")
	assert.Check(t, !res.Audit.Clean(), "the audit of a lie: %+v", res.Audit)
}

// TestAWorkerEndedByAnInterruptIsNoCrash: an interrupt ends the workers
// as it ends the run; their exits, which come at the same moment, are
// not taken for a worker that ended by itself. (drive chooses between
// the two at random, so the test offers both twenty times.)
func TestAWorkerEndedByAnInterruptIsNoCrash(t *testing.T) {
	t.Parallel()
	p, err := worker.StartInProcess(t.Context(), worker.Role{Name: "quitter", Run: func(context.Context, []string, *worker.Link) error { return nil }})
	assert.NilError(t, err)
	<-p.Done()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for range 20 {
		c := newCoordinator(runPlan{processes: 1, Owners: []string{"worker-a"}}, t.TempDir(), nil)
		c.exits <- exited{p: p, owner: "worker-a"}

		_, err := c.drive(ctx)

		assert.ErrorIs(t, err, context.Canceled)
	}
}

// TestARunWhoseWorkerCrashesFailsAndStopsTheOthers: a run in which a
// worker ends by itself fails with that, not with what the audit of the
// unfinished run would say, and leaves none of its workers running.
func TestARunWhoseWorkerCrashesFailsAndStopsTheOthers(t *testing.T) {
	t.Parallel()
	var started []*worker.Process
	var mu sync.Mutex
	quitter := func(ctx context.Context, a workerArgs, link *worker.Link) error {
		if a.Owner == "worker-b" {
			return nil
		}
		return idle(ctx, a, link)
	}
	start := inProcess(quitter, nil)
	recording := func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		p, err := start(ctx, r, args...)
		mu.Lock()
		defer mu.Unlock()
		started = append(started, p)
		return p, err
	}

	_, err := newCoordinator(newPlan(1, 3, 2, 0, 40), t.TempDir(), recording).run(t.Context(), 2, historyCheck{})

	assert.ErrorContains(t, err, "worker-b (pid")
	mu.Lock()
	defer mu.Unlock()
	assert.Assert(t, cmp.Len(started, 3))
	for i, p := range started {
		select {
		case <-p.Done():
		default:
			t.Errorf("worker %d still runs after its run failed", i)
		}
	}
}
