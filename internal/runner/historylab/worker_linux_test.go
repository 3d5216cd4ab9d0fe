package historylab

// This file holds the tests of a worker whose record file fails: they
// need Linux's /dev/full and a named pipe.

import (
	"bufio"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestAWorkerThatCannotRecordStops: a call whose start cannot be
// written is not made, and a call whose answer cannot be written ends
// the worker with an error, even its last one: a history missing what
// happened would be judged wrong.
func TestAWorkerThatCannotRecordStops(t *testing.T) {
	t.Parallel()
	a := mailboxPlan(t, t.TempDir(), 0, 3)
	a.Records = "/dev/full" // every write fails: no space left
	err := runWorker(t.Context(), a.encode(), silentLink(t))
	assert.Check(t, cmp.ErrorContains(err, "no space"), "a call whose start cannot be recorded")

	// The record file is a named pipe whose reader leaves after the
	// call's start, while the worker waits in a pause, so that only the
	// answer cannot be written.
	a = mailboxPlan(t, t.TempDir(), 0, 1)
	a.Records = filepath.Join(t.TempDir(), "ops-7.jsonl")
	assert.NilError(t, syscall.Mkfifo(a.Records, 0o600))
	a.Pauses = []pause{{After: 0, Ms: 20}}
	readerGone := make(chan error, 1)
	go func() {
		f, err := os.Open(a.Records)
		if err == nil {
			_, err = bufio.NewReader(f).ReadString('\n')
			f.Close()
		}
		readerGone <- err
	}()
	p, err := worker.StartInProcess(t.Context(), workerRole, a.encode()...)
	assert.NilError(t, err)
	defer p.Stop()
	var pr progress
	assert.NilError(t, p.Recv(&pr))
	assert.Assert(t, cmp.Equal(pr.PauseMs, int64(20)), "the worker's first message: %+v", pr)
	assert.NilError(t, <-readerGone)
	assert.NilError(t, p.Send(progress{Done: 0}))
	go func() { // a worker that went on would report its call: read it
		for p.Recv(&pr) == nil {
		}
	}()
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a worker that could not record an answer did not end")
	}
	assert.Check(t, cmp.Equal(p.Exit().Code, 1), "the exit of a worker that could not record its last call's answer")
}
