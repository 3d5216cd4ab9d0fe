package mailboxlab

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// errNoMoreWorkers is what the starter of TestAWorkerThatCannotStartFailsTheRun
// answers once it has started one worker.
var errNoMoreWorkers = errors.New("this machine starts no more processes")

// TestAWorkerThatCannotStartFailsTheRun: naive and claim, told the story
// or racing, start a worker process per worker. When one cannot be
// started, the run fails with that reason and prints nothing; it does
// not go on with the workers it has.
func TestAWorkerThatCannotStartFailsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  cli.Command
		args []string
	}{
		{"naive", Naive, nil},
		{"claim", Claim, nil},
		{"naive --race", Naive, []string{"--race", "--processes", "2", "--rounds", "1"}},
		{"claim --race", Claim, []string{"--race", "--processes", "2", "--rounds", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet(tc.cmd.Name, flag.ContinueOnError)
			exp := tc.cmd.New(fs)
			assert.NilError(t, fs.Parse(tc.args))
			assert.NilError(t, exp.Validate())
			started := 0
			f := raceFlagsOf(exp)
			f.start = func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
				if started++; started > 1 {
					return nil, errNoMoreWorkers
				}
				return worker.StartInProcess(ctx, r, args...)
			}
			result, err := exp.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
			assert.Check(t, errors.Is(err, errNoMoreWorkers),
				"fencelab %s whose second worker could not start: the run's error is %v; want the reason it could not start", tc.name, err)
			assert.Check(t, result == nil, "fencelab %s whose second worker could not start printed %+v", tc.name, result)
		})
	}
}

// errWorkerFailed is the failure failingWorker injects.
var errWorkerFailed = errors.New("the worker's disk failed")

// failingWorker is the mailbox worker, run in-process, except that
// worker who fails its request op instead of carrying it out, and, with
// op "exit", answers every request and then ends with an error.
func failingWorker(who, op string) worker.Starter {
	role := worker.Role{Name: workerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		db, err := sqlitedb.Open(ctx, args[0])
		if err != nil {
			return err
		}
		defer db.Close()
		w := &claimant{db: db, name: args[1], box: mailbox.Open(db, noClock, mailbox.NoLease)}
		err = worker.Serve(link, func(req request) (reply, error) {
			if w.name == who && req.Op == op {
				return reply{}, errWorkerFailed
			}
			return w.do(ctx, req)
		})
		if err == nil && w.name == who && op == "exit" {
			return errWorkerFailed
		}
		return err
	}}
	return func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		return worker.StartInProcess(ctx, role, args...)
	}
}

// TestAWorkerThatFailsStopsTheRun: when a worker fails a request (its
// ledger's disk failed), the run fails, prints nothing, and asks no
// worker anything more: msg-1's row is left as the failure left it. A
// worker that answers everything and then ends unclean fails the run
// too.
func TestAWorkerThatFailsStopsTheRun(t *testing.T) {
	for _, tc := range []struct {
		cmd       cli.Command
		who, op   string
		wantState mailbox.State // msg-1's state once the run has failed
		wantOwner string
	}{
		// worker-a's read fails: worker-b, which read NEW too, writes nothing.
		{Naive, workerA, "read", mailbox.New, ""},
		// worker-a's write fails: worker-b, next in line, writes nothing.
		{Naive, workerA, "naive-write", mailbox.New, ""},
		// worker-b writes last; then it ends unclean.
		{Naive, workerB, "exit", mailbox.Claimed, workerB},
		// worker-a's claim fails: worker-b does not claim after it.
		{Claim, workerA, "claim", mailbox.New, ""},
		// worker-a's first complete fails: its second is never sent.
		{Claim, workerA, "complete", mailbox.Claimed, workerA},
		{Claim, workerA, "exit", mailbox.Done, workerA},
	} {
		name := tc.cmd.Name + " " + tc.who + " fails " + tc.op
		t.Run(name, func(t *testing.T) {
			fs := flag.NewFlagSet(tc.cmd.Name, flag.ContinueOnError)
			exp := tc.cmd.New(fs)
			raceFlagsOf(exp).start = failingWorker(tc.who, tc.op)
			dir := t.TempDir()
			result, err := exp.Run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard})
			assert.Check(t, err != nil, "fencelab %s: %s failed, yet the run reported no failure", name, tc.who)
			assert.Check(t, result == nil, "fencelab %s printed %+v", name, result)
			assert.Check(t, cmp.Len(openUnder(t, dir), 0), "fencelab %s left a worker running, or files of its run open", name)
			msg, err := readMessage(t.Context(), dir, "msg-1")
			assert.NilError(t, err)
			assert.Check(t, msg.State == tc.wantState && msg.Owner == tc.wantOwner,
				"fencelab %s: msg-1 is %s owned by %q once the run failed; want %s owned by %q: the run stops at the worker that failed",
				name, msg.State, msg.Owner, tc.wantState, tc.wantOwner)
		})
	}
}

// TestARaceStopsAtTheWorkerThatFails: when a worker fails its request in
// a round, the run fails and starts no further round: the next round's
// message stays NEW.
func TestARaceStopsAtTheWorkerThatFails(t *testing.T) {
	for _, tc := range []struct {
		cmd cli.Command
		op  string
	}{{Naive, "naive-claim"}, {Claim, "claim"}} {
		t.Run(tc.cmd.Name, func(t *testing.T) {
			fs := flag.NewFlagSet(tc.cmd.Name, flag.ContinueOnError)
			exp := tc.cmd.New(fs)
			assert.NilError(t, fs.Parse([]string{"--race", "--processes", "2", "--rounds", "2"}))
			raceFlagsOf(exp).start = failingWorker("worker-2", tc.op)
			dir := t.TempDir()
			result, err := exp.Run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard})
			assert.Check(t, err != nil, "fencelab %s --race: worker-2 failed, yet the run reported no failure", tc.cmd.Name)
			assert.Check(t, result == nil, "fencelab %s --race printed %+v", tc.cmd.Name, result)
			assert.Check(t, cmp.Len(openUnder(t, dir), 0), "fencelab %s --race left a worker running, or files of its run open", tc.cmd.Name)
			msg, err := readMessage(t.Context(), dir, roundMessage(2))
			assert.NilError(t, err)
			assert.Check(t, msg.State == mailbox.New,
				"fencelab %s --race: worker-2 failed in round 1, yet round 2 was run (msg-r2 is %s by %q)", tc.cmd.Name, msg.State, msg.Owner)
		})
		t.Run(tc.cmd.Name+" ends unclean", func(t *testing.T) {
			fs := flag.NewFlagSet(tc.cmd.Name, flag.ContinueOnError)
			exp := tc.cmd.New(fs)
			assert.NilError(t, fs.Parse([]string{"--race", "--processes", "2", "--rounds", "1"}))
			raceFlagsOf(exp).start = failingWorker("worker-2", "exit")
			result, err := exp.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
			assert.Check(t, err != nil, "fencelab %s --race: worker-2 answered every round, then failed; the run reported no failure", tc.cmd.Name)
			assert.Check(t, result == nil, "fencelab %s --race printed %+v", tc.cmd.Name, result)
		})
	}
}

// raceFlagsOf returns the flags of naive's or claim's experiment.
func raceFlagsOf(exp cli.Experiment) *raceFlags {
	switch e := exp.(type) {
	case *naiveExperiment:
		return e.raceFlags
	case *claimExperiment:
		return e.raceFlags
	}
	panic("not naive or claim")
}

// scriptedWorker is a race worker, run in-process, whose answers are set
// in advance: in round r, worker w writes itself as msg-rR's owner if
// writes[w][r], and says it believes it won if believes[w][r]; rounds
// past the end of a list do neither.
func scriptedWorker(writes, believes map[string][]bool) worker.Starter {
	role := worker.Role{Name: workerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		db, err := sqlitedb.Open(ctx, args[0])
		if err != nil {
			return err
		}
		defer db.Close()
		name := args[1]
		say := func(m map[string][]bool, r int) bool { return r < len(m[name]) && m[name][r] }
		return worker.Serve(link, func(req request) (reply, error) {
			var r int
			if _, err := fmt.Sscanf(req.ID, "msg-r%d", &r); err != nil {
				return reply{}, err
			}
			if say(writes, r) {
				if err := naiveWrite(ctx, db, req.ID, name); err != nil {
					return reply{}, err
				}
			}
			return reply{Believes: say(believes, r)}, nil
		})
	}}
	return func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		return worker.StartInProcess(ctx, role, args...)
	}
}

// TestARaceCountsEachRoundFromItsBelieversAndItsOwner: the race's
// counts come from what each worker believes and who the disk names,
// round by round. Here, over five rounds: one believer who owns it; two
// believers; nobody at all; one believer while the disk names the other;
// one believer who owns it.
func TestARaceCountsEachRoundFromItsBelieversAndItsOwner(t *testing.T) {
	w1, w2 := "worker-1", "worker-2"
	// Index r is round r; index 0 is unused.
	writes := map[string][]bool{w1: {false, true, true, false, false, true}, w2: {false, false, true, false, true, false}}
	believes := map[string][]bool{w1: {false, true, true, false, true, true}, w2: {false, false, true, false, false, false}}
	for _, cmd := range []cli.Command{Naive, Claim} {
		t.Run(cmd.Name, func(t *testing.T) {
			fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
			exp := cmd.New(fs)
			assert.NilError(t, fs.Parse([]string{"--race", "--processes", "2", "--rounds", "5"}))
			raceFlagsOf(exp).start = scriptedWorker(writes, believes)
			dir := t.TempDir()
			got, err := exp.Run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard})
			assert.NilError(t, err)
			assert.DeepEqual(t, got, raceResult{Command: cmd.Name, Mode: "race", Processes: 2, Rounds: 5,
				RoundsWithOneOwner: 3, RoundsWithSeveralBelievers: 1, MaxBelievers: 2, RoundsOwnerNotABeliever: 2})
			assert.Check(t, cmp.Len(openUnder(t, dir), 0), "fencelab %s --race left files of its run open", cmd.Name)
		})
	}
}

// TestAMailboxWorkerFailsOnWhatItCannotDo: a worker started without its
// two arguments, or on a ledger that cannot be opened, or asked something
// it does not know, ends with an error, never with an empty answer taken
// for a result.
func TestAMailboxWorkerFailsOnWhatItCannotDo(t *testing.T) {
	for name, args := range map[string][]string{
		"no name":            {filepath.Join(t.TempDir(), ledgerFile)},
		"a folder as ledger": {t.TempDir(), workerA},
	} {
		t.Run(name, func(t *testing.T) {
			w, err := worker.StartInProcess(t.Context(), workerRole, args...)
			assert.NilError(t, err)
			defer w.Stop()
			assert.Check(t, w.WaitClean() != nil, "a mailbox worker started with %q ended cleanly", args)
		})
	}
	t.Run("unknown request", func(t *testing.T) {
		dir := t.TempDir()
		assert.NilError(t, addMessage(t.Context(), dir, "msg-1", "Restock vanilla"))
		w, err := worker.StartInProcess(t.Context(), workerRole, filepath.Join(dir, ledgerFile), workerA)
		assert.NilError(t, err)
		defer w.Stop()
		_, err = worker.Ask[reply](w, request{Op: "dance", ID: "msg-1"})
		assert.Check(t, err != nil, "a mailbox worker answered a request it does not know")
		assert.Check(t, w.WaitClean() != nil, "a mailbox worker ended cleanly after a request it does not know")
	})
}

// TestAMailboxWorkerClosesItsLedger: once a worker has ended, it holds no
// file of its ledger open (it is this process here, so this process's
// descriptors tell). A process that exits closes everything anyway; a
// worker that outlives its role, as an in-process one does, must close
// it itself.
func TestAMailboxWorkerClosesItsLedger(t *testing.T) {
	dir := t.TempDir()
	assert.NilError(t, addMessage(t.Context(), dir, "msg-1", "Restock vanilla"))
	w, err := worker.StartInProcess(t.Context(), workerRole, filepath.Join(dir, ledgerFile), workerA)
	assert.NilError(t, err)
	defer w.Stop()
	got, err := worker.Ask[reply](w, request{Op: "read", ID: "msg-1"})
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(got.State, "NEW"), "a worker reading a NEW message")
	assert.Assert(t, len(openUnder(t, dir)) > 0, "a mailbox worker holds its ledger open while it runs")
	w.Link.CloseSend()
	assert.NilError(t, w.WaitClean())
	assert.Check(t, cmp.Len(openUnder(t, dir), 0), "a mailbox worker ended with its connection to the ledger still open")
}

// TestARaceByDefaultRunsTheContractsEightWorkersForAHundredRounds: the
// runner's contract gives --processes 8 and --rounds 100 as race mode's
// defaults.
func TestARaceByDefaultRunsTheContractsEightWorkersForAHundredRounds(t *testing.T) {
	fs := flag.NewFlagSet(Naive.Name, flag.ContinueOnError)
	exp := Naive.New(fs)
	assert.NilError(t, fs.Parse([]string{"--race"}))
	script := scriptedWorker(nil, nil)
	started := 0
	raceFlagsOf(exp).start = func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		started++
		return script(ctx, r, args...)
	}
	got, err := exp.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
	assert.NilError(t, err)
	res := got.(raceResult)
	assert.Check(t, res.Processes == 8 && started == 8, "naive --race started %d workers and says %d; the contract's default is 8", started, res.Processes)
	assert.Check(t, cmp.Equal(res.Rounds, 100), "naive --race ran the contract's default of 100 rounds")
}

// startOn starts a mailbox worker named name, in-process, on a fresh
// ledger in dir holding msg-1, NEW.
func startOn(t *testing.T, dir, name string) *worker.Process {
	t.Helper()
	assert.NilError(t, addMessage(t.Context(), dir, "msg-1", "Restock vanilla"))
	w, err := worker.StartInProcess(t.Context(), workerRole, filepath.Join(dir, ledgerFile), name)
	assert.NilError(t, err)
	t.Cleanup(w.Stop)
	return w
}

// TestANaiveClaimerThatSeesTheMessageTakenWritesNothing: in naive race
// mode a worker reads, decides in Go, then writes. One that reads a
// message someone else already claimed decides not to: it writes nothing
// and does not believe it won.
func TestANaiveClaimerThatSeesTheMessageTakenWritesNothing(t *testing.T) {
	dir := t.TempDir()
	first := startOn(t, dir, workerA)
	got, err := worker.Ask[reply](first, request{Op: "naive-claim", ID: "msg-1"})
	assert.NilError(t, err)
	assert.Check(t, got.Believes, "the first naive claimer of a NEW message believes it won")

	other, err := worker.StartInProcess(t.Context(), workerRole, filepath.Join(dir, ledgerFile), workerB)
	assert.NilError(t, err)
	defer other.Stop()
	got, err = worker.Ask[reply](other, request{Op: "naive-claim", ID: "msg-1"})
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(got.State, "CLAIMED"), "the second naive claimer read what the first wrote")
	assert.Check(t, !got.Believes, "a naive claimer that read CLAIMED believes it won")
	msg, err := readMessage(t.Context(), dir, "msg-1")
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(msg.Owner, workerA), "a naive claimer that read CLAIMED wrote itself as the owner")
}

// TestAWorkerWhoseWriteFailsFails: when the ledger refuses a worker's
// write (here a trigger refuses every update of msg-1), the worker ends
// with the error; it never answers as if the write had merely lost, or
// been refused.
func TestAWorkerWhoseWriteFailsFails(t *testing.T) {
	for _, op := range []string{"naive-write", "naive-claim", "claim", "complete"} {
		t.Run(op, func(t *testing.T) {
			dir := t.TempDir()
			w := startOn(t, dir, workerA)
			var token int64 // what a complete presents: the worker's own claim's
			if op == "complete" {
				c, err := worker.Ask[reply](w, request{Op: "claim", ID: "msg-1"})
				assert.NilError(t, err)
				token = c.Token
			}
			db, err := openLedger(t.Context(), dir)
			assert.NilError(t, err)
			assert.NilError(t, db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
				_, err := tx.Exec(t.Context(), `CREATE TRIGGER no_updates BEFORE UPDATE ON messages BEGIN SELECT RAISE(FAIL, 'the disk is full'); END`)
				return err
			}))
			assert.NilError(t, db.Close())

			got, err := worker.Ask[reply](w, request{Op: op, ID: "msg-1", Token: token})
			assert.Check(t, err != nil, "a worker whose %s could not be written answered %+v", op, got)
			assert.Check(t, w.WaitClean() != nil, "a worker whose %s could not be written ended cleanly", op)
		})
	}
}
