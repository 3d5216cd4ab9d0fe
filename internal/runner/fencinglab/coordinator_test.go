package fencinglab

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
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

// TestACaseStopsAtWorkerAsFailedCall: when worker A fails its destination
// call (here its disk failed), the case fails at that call: B, whose
// call comes next in fence-old-first, never calls, and the destination
// keeps nothing.
func TestACaseStopsAtWorkerAsFailedCall(t *testing.T) {
	failsItsCall := worker.Role{Name: oldWorkerRole.Name, Run: func(ctx context.Context, args []string, link *worker.Link) error {
		qdb, err := sqlitedb.Open(ctx, args[0])
		if err != nil {
			return err
		}
		defer qdb.Close()
		a := &oldWorker{queue: qdb, next: "claim"}
		return worker.Serve(link, func(o order) (news, error) {
			if o.Op == "call" {
				return news{}, errors.New("worker A's disk failed")
			}
			return a.obey(ctx, o)
		})
	}}
	start := func(ctx context.Context, _ worker.Role, args ...string) (*worker.Process, error) {
		return worker.StartInProcess(ctx, failsItsCall, args...)
	}
	dir := t.TempDir()
	_, err := RunCase(t.Context(), dir, "fence-old-first", int64(defaultUnits), start)
	assert.Check(t, cmp.ErrorContains(err, "gave no answer to call"), "a case whose worker A failed its call")

	db, err := sqlitedb.Open(t.Context(), filepath.Join(dir, "fence-old-first", destinationFile))
	assert.NilError(t, err)
	defer db.Close()
	got, err := gate.Open(db, gate.Fence).State(t.Context())
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(got, gate.State{}), "worker A's call failed, yet the case went on to B's: the destination holds %+v", got)
}
