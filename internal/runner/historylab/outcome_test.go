package historylab

// This file holds the tests of what a run makes of its workers' records:
// the count of calls with no answer, and the errors that fail the run.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
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

// oneOfEach records one answered read and one call with no answer, then
// says it is done.
func oneOfEach(a workerArgs, records *os.File, link *worker.Link) error {
	rec := history.NewRecorder(records, a.Process)
	answered, err := rec.Call(history.Op{Kind: history.Read, Key: "k-1", Actor: a.Actor})
	if err != nil {
		return err
	}
	if err := answered(history.Out{Result: history.OK}); err != nil {
		return err
	}
	if _, err := rec.Call(history.Op{Kind: history.Read, Key: "k-2", Actor: a.Actor}); err != nil {
		return err
	}
	return link.Send(progress{Done: a.To, Last: true})
}

// oneCallEach is a run of two slots of one call each: no kill, no pause.
func oneCallEach(start worker.Starter) *flags {
	return &flags{mechanism: "mailbox", processes: 2, ops: 1, seed: 1, start: start}
}

// TestARunCountsTheCallsThatGotNoAnswer: of each worker's two calls, the
// one whose answer never came is counted unanswered, the other not.
func TestARunCountsTheCallsThatGotNoAnswer(t *testing.T) {
	t.Parallel()
	got, err := run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard}, oneCallEach(scripted(oneOfEach)))

	assert.NilError(t, err)
	res := got.(result)
	assert.Check(t, cmp.Equal(res.Operations, 4), "calls recorded")
	assert.Check(t, cmp.Equal(res.Unanswered, 2), "calls with no answer")
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
