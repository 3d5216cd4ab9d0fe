package fencinglab

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestMain lets this test binary be worker A: a run starts the runner
// again as its old worker, and under test the runner is this binary.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "fencelab" {
		os.Exit(worker.Main(context.Background(), []worker.Role{oldWorkerRole}, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestACaseThatFailsStopsWorkerA: when a case fails after starting worker
// A (here A answers its claim with something other than "paused"), the
// case's error says so and A is stopped before RunCase returns, whoever
// gave the context.
func TestACaseThatFailsStopsWorkerA(t *testing.T) {
	confused := worker.Role{Name: oldWorkerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		return worker.Serve(link, func(o order) (news, error) { return news{Result: "asleep"}, nil })
	}}
	var a *worker.Process
	start := func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		p, err := worker.StartInProcess(ctx, confused, args...)
		a = p
		return p, err
	}
	_, err := RunCase(t.Context(), t.TempDir(), "fence-new-first", int64(defaultUnits), start)
	assert.Check(t, cmp.ErrorContains(err, `answered "asleep" to its claim`))
	assert.Assert(t, a != nil, "the case never started worker A")
	select {
	case <-a.Done():
	default:
		t.Errorf("the case failed and returned with worker A still running")
	}
}

// TestACaseRunsOnlyInAFreshFolder: a case makes its own folder, named
// after it, and never runs over one already there: a second run of the
// same case in the same place fails on the folder, before it touches the
// first run's files.
func TestACaseRunsOnlyInAFreshFolder(t *testing.T) {
	dir := t.TempDir()
	_, err := RunCase(t.Context(), dir, "finish-only", int64(defaultUnits), worker.StartInProcess)
	assert.NilError(t, err)
	queuePath := filepath.Join(dir, "finish-only", queueFile)
	before, err := os.ReadFile(queuePath)
	assert.NilError(t, err)

	_, err = RunCase(t.Context(), dir, "finish-only", int64(defaultUnits), worker.StartInProcess)
	assert.Check(t, errors.Is(err, fs.ErrExist), "a second run of finish-only in the same folder: %v; want it refused because the case's folder exists", err)
	after, err := os.ReadFile(queuePath)
	assert.NilError(t, err)
	assert.Check(t, bytes.Equal(before, after), "a second run of finish-only changed the first run's queue")
}

// TestACaseWhoseWorkerAEndsUncleanFails: worker A answers every order and
// then exits with status 1 (here closing its files failed): the case
// fails and says so; it is not reported as a story that went to plan.
func TestACaseWhoseWorkerAEndsUncleanFails(t *testing.T) {
	unclean := worker.Role{Name: oldWorkerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		if err := runOldWorker(ctx, args, link); err != nil {
			return err
		}
		return errors.New("closing the destination failed")
	}}
	start := func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		return worker.StartInProcess(ctx, unclean, args...)
	}
	_, err := RunCase(t.Context(), t.TempDir(), "fence-new-first", int64(defaultUnits), start)
	assert.Check(t, cmp.ErrorContains(err, "exited with status 1"), "a case whose worker A ended unclean")
}

// failsAt is worker A, run in-process, failing order op (its disk
// failed) and obeying every other; it calls no destination.
func failsAt(op string) worker.Starter {
	role := worker.Role{Name: oldWorkerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		qdb, err := sqlitedb.Open(ctx, args[0])
		if err != nil {
			return err
		}
		defer qdb.Close()
		a := &oldWorker{queue: qdb, next: "claim"}
		return worker.Serve(link, func(o order) (news, error) {
			if o.Op == op {
				return news{}, errors.New("worker A's disk failed")
			}
			if o.Op == "call" { // obeyed without calling: A's call never arrives
				a.next = "finish"
				return news{Result: string(gate.Fenced)}, nil
			}
			return a.obey(ctx, o)
		})
	}}
	return func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		return worker.StartInProcess(ctx, role, args...)
	}
}

// TestACaseStopsAtWorkerAsFailure: when worker A fails an order, the
// case fails at that order and names it. A failed call in fence-old-first
// comes before B's: B never calls, and the destination keeps nothing. A
// failed finish comes before B's finish: B never finishes, and JOB-1 is
// still B's, running.
func TestACaseStopsAtWorkerAsFailure(t *testing.T) {
	t.Run("call", func(t *testing.T) {
		dir := t.TempDir()
		_, err := RunCase(t.Context(), dir, "fence-old-first", int64(defaultUnits), failsAt("call"))
		assert.Check(t, cmp.ErrorContains(err, "gave no answer to call"), "a case whose worker A failed its call")

		db, err := sqlitedb.Open(t.Context(), filepath.Join(dir, "fence-old-first", destinationFile))
		assert.NilError(t, err)
		defer db.Close()
		got, err := gate.Open(db, gate.Fence).State(t.Context())
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(got, gate.State{}), "worker A's call failed, yet the case went on to B's: the destination holds %+v", got)
	})
	t.Run("finish", func(t *testing.T) {
		dir := t.TempDir()
		_, err := RunCase(t.Context(), dir, "fence-new-first", int64(defaultUnits), failsAt("finish"))
		assert.Check(t, cmp.ErrorContains(err, "gave no answer to finish"), "a case whose worker A failed its finish")

		db, err := sqlitedb.Open(t.Context(), filepath.Join(dir, "fence-new-first", queueFile))
		assert.NilError(t, err)
		defer db.Close()
		job, err := queue.Open(db, nil, int64(leaseTicks)).Get(t.Context(), jobID)
		assert.NilError(t, err)
		assert.Check(t, job.State == queue.Running && job.Worker == workerB,
			"worker A's finish failed, yet the case went on to B's: JOB-1 is %s by %s", job.State, job.Worker)
	})
}

// TestAnUnknownCaseIsMisuseWhateverElseIsGiven: --case must name one of
// the seven cases, with --units given or not; a run of no case at all
// would print a report of nothing.
func TestAnUnknownCaseIsMisuseWhateverElseIsGiven(t *testing.T) {
	for _, args := range [][]string{{"--case", "fence-twice"}, {"--case", "fence-twice", "--units", "3"}, {"--units", "3", "--case", "fence-twice"}} {
		fs := flag.NewFlagSet(Fencing.Name, flag.ContinueOnError)
		exp := Fencing.New(fs)
		assert.NilError(t, fs.Parse(args))
		assert.Check(t, cmp.ErrorContains(exp.Validate(), "fence-twice"), "fencelab fencing %s", strings.Join(args, " "))
	}
}

// TestTheFirstCaseToFailStopsTheOthers: the cases of a run go at the same
// time; when one fails, the run stops the others rather than waiting for
// them, and fails with the first one's error. Here finish-only's worker
// A fails its claim, and every other case's worker A that got started
// waits, without answering, until its context ends: it must end because
// the run stopped it, not because the test gave up.
func TestTheFirstCaseToFailStopsTheOthers(t *testing.T) {
	errNoClaim := errors.New("worker A's disk failed")
	errTooLong := errors.New("the test gave up waiting for the run to stop its cases")
	ctx, cancel := context.WithTimeoutCause(t.Context(), 20*time.Second, errTooLong)
	defer cancel()
	var mu sync.Mutex
	var ends []error // why each waiting worker A stopped waiting
	fails := worker.Role{Name: oldWorkerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		return worker.Serve(link, func(o order) (news, error) { return news{}, errNoClaim })
	}}
	waits := worker.Role{Name: oldWorkerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		<-ctx.Done()
		mu.Lock()
		ends = append(ends, context.Cause(ctx))
		mu.Unlock()
		return ctx.Err()
	}}

	fs := flag.NewFlagSet(Fencing.Name, flag.ContinueOnError)
	exp := Fencing.New(fs).(*experiment)
	exp.start = func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		if strings.Contains(args[0], string(filepath.Separator)+"finish-only"+string(filepath.Separator)) {
			return worker.StartInProcess(ctx, fails, args...)
		}
		return worker.StartInProcess(ctx, waits, args...)
	}
	_, err := exp.Run(ctx, cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
	assert.Check(t, cmp.ErrorContains(err, "case finish-only: "), "a run whose case finish-only failed")
	for _, end := range ends {
		assert.Check(t, !errors.Is(end, errTooLong), "a case went on waiting after finish-only failed: the run did not stop it")
	}
}

// TestRunCaseRefusesACaseItDoesNotHave: RunCase names the seven cases;
// any other name is an error the caller can tell apart.
func TestRunCaseRefusesACaseItDoesNotHave(t *testing.T) {
	_, err := RunCase(t.Context(), t.TempDir(), "fence-twice", int64(defaultUnits), worker.StartInProcess)
	assert.Check(t, errors.Is(err, ErrUnknownCase), "RunCase of a case it does not have: %v", err)
}
