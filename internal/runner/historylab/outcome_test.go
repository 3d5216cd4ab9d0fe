package historylab

// This file holds the tests of what a run makes of its workers' records:
// the count of calls with no answer, and the errors that fail the run.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/historylab/calls"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// scripted returns a Starter whose workers, on goroutines of the test,
// do what body says with their plan and their record file instead of
// calling a mechanism.
func scripted(body func(a workerArgs, records *os.File, link *worker.Link) error) worker.Starter {
	return func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		var a workerArgs
		if err := json.Unmarshal([]byte(args[0]), &a); err != nil {
			return nil, err
		}
		role := worker.Role{Name: r.Name, Run: func(ctx context.Context, _ []string, link *worker.Link) error {
			f, err := os.OpenFile(a.Records, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				return err
			}
			defer f.Close()
			return body(a, f, link)
		}}
		return worker.StartInProcess(ctx, role, args...)
	}
}

// oneOfEach records two answered reads, one answered that it failed
// without an answer, and one never answered, then says it is done.
func oneOfEach(a workerArgs, records *os.File, link *worker.Link) error {
	rec := history.NewRecorder(records, a.Process)
	answered, err := rec.Call(history.Op{Kind: history.Read, Key: "k-1", Actor: a.Actor})
	if err != nil {
		return err
	}
	if err := answered(history.Out{Result: history.OK}); err != nil {
		return err
	}
	answered, err = rec.Call(history.Op{Kind: history.Read, Key: "k-4", Actor: a.Actor})
	if err != nil {
		return err
	}
	if err := answered(history.Out{Result: history.OK}); err != nil {
		return err
	}
	failed, err := rec.Call(history.Op{Kind: history.Read, Key: "k-2", Actor: a.Actor})
	if err != nil {
		return err
	}
	if err := failed(history.Out{Result: history.Unknown}); err != nil {
		return err
	}
	if _, err := rec.Call(history.Op{Kind: history.Read, Key: "k-3", Actor: a.Actor}); err != nil {
		return err
	}
	return link.Send(progress{Done: a.To, Last: true})
}

// oneCallEach is a run of two slots of one call each: no kill, no pause.
func oneCallEach(start worker.Starter) *flags {
	return &flags{mechanism: "mailbox", processes: 2, ops: 1, seed: 1, start: start}
}

// TestARunCountsTheCallsThatGotNoAnswer: of each worker's four calls,
// the one whose answer never came and the one that failed without an
// answer are counted unanswered, the two answered ones not.
func TestARunCountsTheCallsThatGotNoAnswer(t *testing.T) {
	t.Parallel()
	got, err := run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard}, oneCallEach(scripted(oneOfEach)))

	assert.NilError(t, err)
	res := got.(result)
	assert.Check(t, cmp.Equal(res.Operations, 8), "calls recorded")
	assert.Check(t, cmp.Equal(res.Unanswered, 4), "calls with no answer")
}

// TestARunFailsOnWhatItCannotRead: a worker that ends without saying it
// is done, a record line that is JSON but not a call, and a history that
// cannot be written each fail the run, saying what.
func TestARunFailsOnWhatItCannotRead(t *testing.T) {
	t.Parallel()
	quits := errors.New("the worker gave up")
	_, err := run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard},
		oneCallEach(scripted(func(workerArgs, *os.File, *worker.Link) error { return quits })))
	assert.Check(t, cmp.ErrorContains(err, "history worker"), "a worker that quit")

	garbled := func(a workerArgs, records *os.File, link *worker.Link) error {
		if _, err := records.WriteString(`{"note": "not a call"}` + "\n"); err != nil {
			return err
		}
		return link.Send(progress{Done: a.To, Last: true})
	}
	_, err = run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard}, oneCallEach(scripted(garbled)))
	assert.Check(t, err != nil, "a record line that is not a call must fail the run")

	dir := t.TempDir()
	assert.NilError(t, os.Mkdir(filepath.Join(dir, "history.jsonl"), 0o755))
	_, err = run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard}, oneCallEach(scripted(oneOfEach)))
	assert.Check(t, cmp.ErrorContains(err, "history.jsonl"), "a history that cannot be written")
}

// TestARunHandsEveryWorkerItsKeys: every process gets the run's
// database, mechanism and seed, and its keys: the hot ones and one more
// per four calls of the run, named k-1 and up. The result says what was
// run, and counts the kills.
func TestARunHandsEveryWorkerItsKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var l launches
	f := &flags{mechanism: "queue", processes: 2, ops: 10, seed: 4, start: l.starter(scripted(counting))}

	got, err := run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard}, f)

	assert.NilError(t, err)
	var keys []string
	for i := range calls.HotKeys + 2*10/4 {
		keys = append(keys, fmt.Sprintf("k-%d", i+1))
	}
	plans := l.all()
	assert.Assert(t, cmp.Len(plans, 3), "processes started: two, and one replacement")
	for _, a := range plans {
		assert.Check(t, slices.Equal(a.Keys, keys), "process %d's keys: %v, want %v", a.Process, a.Keys, keys)
		assert.Check(t, cmp.Equal(a.DB, filepath.Join(dir, "history.db")), "process %d's database", a.Process)
		assert.Check(t, cmp.Equal(a.Mechanism, "queue"), "process %d's mechanism", a.Process)
		assert.Check(t, cmp.Equal(a.Seed, int64(4)), "process %d's seed", a.Process)
	}
	want := result{Command: "history", Mechanism: "queue", Seed: 4, Processes: 2, Ops: 10, Kills: 1}
	assert.Check(t, cmp.DeepEqual(got, any(want)), "the result of a run of counting workers, unchecked")
}

// TestARunChecksOnlyWhenAsked: without --check the result has no
// verdict and no time; with it, both, and --visualize writes the page
// where it says, or fails naming it.
func TestARunChecksOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	env := cli.Env{Dir: t.TempDir(), Stderr: io.Discard}
	got, err := run(t.Context(), env, oneCallEach(scripted(oneOfEach)))
	assert.NilError(t, err)
	assert.Check(t, got.(result).Linearizable == nil && got.(result).Seconds == nil, "a run without --check: %+v", got)

	f := oneCallEach(scripted(counting))
	f.check, f.visualize = checkLinearizable, filepath.Join(t.TempDir(), "h.html")
	got, err = run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard}, f)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(got.(result).Linearizable, any(true)), "a history of no call")
	assert.Check(t, got.(result).Seconds != nil, "a checked run's time")
	_, err = os.Stat(f.visualize)
	assert.Check(t, err, "the page")

	f = oneCallEach(scripted(oneOfEach))
	f.check, f.visualize = checkLinearizable, filepath.Join(t.TempDir(), "missing", "h.html")
	_, err = run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard}, f)
	assert.Check(t, cmp.ErrorContains(err, f.visualize), "a page that cannot be written")
}

// TestARunFailsOnWhatItCannotSetUp: a mechanism that does not exist, a
// run folder that does not, and a database already set up (a run in the
// folder of another) each fail the run before a worker starts.
func TestARunFailsOnWhatItCannotSetUp(t *testing.T) {
	t.Parallel()
	var l launches
	start := l.starter(scripted(oneOfEach))
	f := oneCallEach(start)
	f.mechanism = "abacus"
	_, err := run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard}, f)
	assert.Check(t, cmp.ErrorContains(err, "abacus"), "an unknown mechanism")

	missing := filepath.Join(t.TempDir(), "missing")
	_, err = run(t.Context(), cli.Env{Dir: missing, Stderr: io.Discard}, oneCallEach(start))
	assert.Check(t, cmp.ErrorContains(err, missing), "a run folder that does not exist")
	assert.Check(t, cmp.Len(l.all(), 0), "workers started by runs that could not be set up")

	dir := t.TempDir()
	_, err = run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard}, oneCallEach(scripted(oneOfEach)))
	assert.NilError(t, err)
	_, err = run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard}, oneCallEach(start))
	assert.Check(t, err != nil, "a run over a database set up before must fail")
	assert.Check(t, cmp.Len(l.all(), 0), "workers started by a run that could not be set up")
}

// TestAHistoryThatCannotBeWrittenFails: the merged history's write
// error is the run's, as is its close's.
func TestAHistoryThatCannotBeWrittenFails(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("needs /dev/full, a file every write to fails")
	}
	t.Parallel()
	err := writeHistory("/dev/full", []history.Op{{Kind: history.Read, Key: "k-1"}})
	assert.Check(t, cmp.ErrorContains(err, "no space"), "a history written to a full disk")
	assert.Check(t, writeHistory(filepath.Join(t.TempDir(), "h.jsonl"), nil), "an empty history")
}
