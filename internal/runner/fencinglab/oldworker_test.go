package fencinglab

// Worker A's own side: what it does with each order, run here in-process
// on files the test made, with the coordinator played by the test.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// files makes a queue holding JOB-1 and a destination under a fresh
// folder, closes them, and returns their paths.
func files(t *testing.T) (queuePath, destPath string) {
	t.Helper()
	dir := t.TempDir()
	queuePath, destPath = filepath.Join(dir, queueFile), filepath.Join(dir, destinationFile)
	q, err := sqlitedb.Open(t.Context(), queuePath)
	assert.NilError(t, err)
	defer q.Close()
	assert.NilError(t, queue.CreateSchema(t.Context(), q))
	assert.NilError(t, queue.Open(q, nil, int64(leaseTicks)).Add(t.Context(), jobID, operation, int64(defaultUnits)))
	d, err := sqlitedb.Open(t.Context(), destPath)
	assert.NilError(t, err)
	defer d.Close()
	assert.NilError(t, gate.CreateSchema(t.Context(), d))
	return queuePath, destPath
}

// startA starts worker A in-process with args.
func startA(t *testing.T, args ...string) *worker.Process {
	t.Helper()
	a, err := worker.StartInProcess(t.Context(), oldWorkerRole, args...)
	assert.NilError(t, err)
	t.Cleanup(a.Stop)
	return a
}

// TestWorkerAFailsOnWhatItCannotDo: A started without its three
// arguments, with a contract it does not know, or on a file it cannot
// open ends with an error; so does an order out of the story's order
// (claim, call, finish), and any order after finishing.
func TestWorkerAFailsOnWhatItCannotDo(t *testing.T) {
	q, d := files(t)
	folder := t.TempDir()
	for name, args := range map[string][]string{
		"two arguments":               {q, d},
		"an unknown contract":         {q, d, "fence-and-hope"},
		"a folder as its queue":       {folder, d, string(gate.Fence)},
		"a folder as its destination": {q, folder, string(gate.Fence)},
	} {
		t.Run(name, func(t *testing.T) {
			a := startA(t, args...)
			a.Link.CloseSend()
			assert.Check(t, a.WaitClean() != nil, "worker A started with %q ended cleanly", args)
		})
	}
	for name, orders := range map[string][]order{
		"call before claim":     {{Op: "call"}},
		"finish before call":    {{Op: "claim"}, {Op: "finish", Tick: int64(tickFinish)}},
		"claim after finishing": {{Op: "claim"}, {Op: "call"}, {Op: "finish", Tick: int64(tickFinish)}, {Op: "claim"}},
	} {
		t.Run(name, func(t *testing.T) {
			q, d := files(t)
			a := startA(t, q, d, string(gate.Fence))
			last := len(orders) - 1
			for _, o := range orders[:last] {
				_, err := worker.Ask[news](a, o)
				assert.NilError(t, err, "worker A's %s", o.Op)
			}
			got, err := worker.Ask[news](a, orders[last])
			assert.Check(t, err != nil, "worker A obeyed %s and answered %+v", name, got)
			assert.Check(t, a.WaitClean() != nil, "worker A ended cleanly after %s", name)
		})
	}
}

// TestWorkerAClosesItsFiles: once A has ended, it holds neither file
// open (it is this process here, so this process's descriptors tell).
func TestWorkerAClosesItsFiles(t *testing.T) {
	q, d := files(t)
	a := startA(t, q, d, string(gate.Fence))
	for _, o := range []order{{Op: "claim"}, {Op: "call"}, {Op: "finish", Tick: int64(tickFinish)}} {
		_, err := worker.Ask[news](a, o)
		assert.NilError(t, err, "worker A's %s", o.Op)
	}
	dir := filepath.Dir(q)
	assert.Assert(t, len(openUnder(t, dir)) > 0, "worker A holds its files open while it runs")
	a.Link.CloseSend()
	assert.NilError(t, a.WaitClean())
	assert.Check(t, cmp.Len(openUnder(t, dir), 0), "worker A ended with files still open")
}

// openUnder lists the files under dir this process holds open, read from
// /proc/self/fd (none where there is no /proc).
func openUnder(t *testing.T, dir string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc here to read open files from")
	}
	var open []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			open = append(open, target)
		}
	}
	return open
}

// TestWorkerAFailsWhenItsFinishCannotBeWritten: A's finish, when the
// queue cannot write it (here a trigger refuses every update of a job),
// ends A with the error; A never reports a finish it could not write as
// an answer, not even as a refusal.
func TestWorkerAFailsWhenItsFinishCannotBeWritten(t *testing.T) {
	q, d := files(t)
	a := startA(t, q, d, string(gate.Fence))
	for _, o := range []order{{Op: "claim"}, {Op: "call"}} {
		_, err := worker.Ask[news](a, o)
		assert.NilError(t, err, "worker A's %s", o.Op)
	}
	db, err := sqlitedb.Open(t.Context(), q)
	assert.NilError(t, err)
	assert.NilError(t, db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(t.Context(), `CREATE TRIGGER no_updates BEFORE UPDATE ON jobs BEGIN SELECT RAISE(FAIL, 'the disk is full'); END`)
		return err
	}))
	assert.NilError(t, db.Close())

	got, err := worker.Ask[news](a, order{Op: "finish", Tick: int64(tickFinish)})
	assert.Check(t, err != nil, "worker A's finish could not be written, yet it answered %+v", got)
	assert.Check(t, a.WaitClean() != nil, "worker A ended cleanly after a finish it could not write")
}
