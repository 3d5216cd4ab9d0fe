package actorlab

// Process B's side of the story: what it does for each request, run here
// as an in-process worker against a ledger of the test's own, with
// process A played by the test on its own connection and clock.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// ledger makes a ledger with the actor's schema and one assignment, and
// returns its path and process A on it, whose clock the test sets.
func ledger(t *testing.T) (string, *actor.Process, *clock.Logical) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ledgerFile)
	db, err := sqlitedb.Open(t.Context(), path)
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	assert.NilError(t, actor.CreateSchema(t.Context(), db))
	clk := &clock.Logical{}
	a := actor.Open(db, clk, leaseMinutes)
	assert.NilError(t, a.AddAssignment(t.Context(), asgSecond, actorName))
	return path, a, clk
}

// startB starts process B on the ledger at path, in this process.
func startB(t *testing.T, path string) *worker.Process {
	t.Helper()
	b, err := worker.StartInProcess(t.Context(), workerRole, path)
	assert.NilError(t, err)
	t.Cleanup(b.Stop)
	return b
}

// TestProcessBActsAtTheMinuteItIsTold: B's clock is the minute in each
// request. A lease B takes at minute 10 runs until minute 25, so A is
// refused at minute 24 and gets the actor at minute 25; had B stayed at
// minute 0, its lease would have ended at 15.
func TestProcessBActsAtTheMinuteItIsTold(t *testing.T) {
	path, a, clk := ledger(t)
	b := startB(t, path)

	got, err := worker.Ask[reply](b, request{Op: "acquire", Actor: actorName, Minute: 10})
	assert.NilError(t, err)
	assert.Equal(t, got.Result, "acquired", "process B's acquire at minute 10")

	clk.Set(24)
	_, err = a.AcquireLease(t.Context(), actorName)
	reason, refused := actor.ReasonOf(err)
	assert.Check(t, refused && reason == actor.ActorLeaseHeld,
		"at minute 24 the lease process B took at minute 10 is still live; A's acquire answered %v", err)
	clk.Set(25)
	_, err = a.AcquireLease(t.Context(), actorName)
	assert.Check(t, err, "at minute 25 the lease process B took at minute 10 has run out, so A gets the actor")
}

// TestProcessBReportsItsRun: a run B completes is reported as completed,
// with the state the ledger kept, the provider invoked and the tokens it
// ran under; a run refused because A holds the actor says so, names A as
// the holder, and never invoked the provider.
func TestProcessBReportsItsRun(t *testing.T) {
	path, a, _ := ledger(t)
	b := startB(t, path)

	held, err := a.AcquireLease(t.Context(), actorName)
	assert.NilError(t, err)
	refusedRun, err := worker.Ask[reply](b, request{Op: "run", Assignment: asgSecond})
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(refusedRun.Result, "refused"))
	assert.Check(t, cmp.Equal(refusedRun.Reason, string(actor.ActorLeaseHeld)))
	assert.Check(t, cmp.Equal(refusedRun.Holder, a.ID()), "the refusal names the process that holds the actor")
	assert.Check(t, !refusedRun.ProviderInvoked, "a refused run never invokes its provider")
	assert.Check(t, cmp.Equal(refusedRun.State, string(actor.Created)))
	assert.NilError(t, a.ReleaseLease(t.Context(), held))

	done, err := worker.Ask[reply](b, request{Op: "run", Assignment: asgSecond, Minute: 1})
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(done.Result, "completed"))
	assert.Check(t, cmp.Equal(done.State, string(actor.Completed)))
	assert.Check(t, done.ProviderInvoked)
	assert.Check(t, done.LeaseToken > held.Token, "B's run holds a newer lease than the one A gave back")
	assert.Check(t, done.AttemptToken > 0, "B's run has an attempt token")
	assert.Check(t, done.ProcessID != "" && done.ProcessID != a.ID(), "the reply names process B's own identity, got %q", done.ProcessID)
	assert.Check(t, cmp.Equal(done.Pid, b.Pid), "the reply carries the pid of the process that answered")
}

// TestProcessBFailsOnWhatItCannotDo: a request B does not know, a start
// without its ledger's path and a ledger that cannot be opened each end
// the worker with an error, never with an empty answer taken for a
// result.
func TestProcessBFailsOnWhatItCannotDo(t *testing.T) {
	t.Run("unknown request", func(t *testing.T) {
		path, _, _ := ledger(t)
		b := startB(t, path)
		_, err := worker.Ask[reply](b, request{Op: "dance"})
		assert.Check(t, err != nil, "process B answered a request it does not know")
		assert.Check(t, b.WaitClean() != nil, "process B ended cleanly after a request it does not know")
	})
	for name, args := range map[string][]string{
		"no ledger":          nil,
		"a folder as ledger": {t.TempDir()},
	} {
		t.Run(name, func(t *testing.T) {
			b, err := worker.StartInProcess(t.Context(), workerRole, args...)
			assert.NilError(t, err)
			assert.Check(t, b.WaitClean() != nil, "process B started with %q ended cleanly", args)
		})
	}
}

// TestProcessBClosesItsLedger: once B has ended, it holds no file of the
// ledger open (it is this process here, so this process's descriptors
// tell). A process that exits closes everything anyway; a worker that
// outlives its role, as an in-process one does, must close it itself.
func TestProcessBClosesItsLedger(t *testing.T) {
	// A ledger nobody else holds open: SQLite keeps a file open until the
	// last connection of the process to it closes.
	path := filepath.Join(t.TempDir(), ledgerFile)
	db, err := sqlitedb.Open(t.Context(), path)
	assert.NilError(t, err)
	assert.NilError(t, actor.CreateSchema(t.Context(), db))
	assert.NilError(t, db.Close())
	b := startB(t, path)
	_, err = worker.Ask[reply](b, request{Op: "acquire", Actor: actorName})
	assert.NilError(t, err)
	assert.Assert(t, descriptorsOf(t, path) > 0, "process B holds its ledger open while it runs")
	b.Link.CloseSend()
	assert.NilError(t, b.WaitClean())

	assert.Check(t, cmp.Equal(descriptorsOf(t, path), 0), "process B ended with its connection to the ledger still open")
}

// descriptorsOf counts this process's open descriptors on path, its -wal
// and its -shm.
func descriptorsOf(t *testing.T, path string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc here to count descriptors")
	}
	n := 0
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, path) {
			n++
		}
	}
	return n
}

// TestOnlyARefusalIsAnAnswer: an error that is not one of the actor's
// refusals is passed on by both sides, never reported as a refusal or a
// grant.
func TestOnlyARefusalIsAnAnswer(t *testing.T) {
	broken := errors.New("disk I/O error")

	_, err := refusedReply(broken)
	assert.Check(t, errors.Is(err, broken), "process B turned %v into an answer", broken)
	_, err = refused(broken)
	assert.Check(t, errors.Is(err, broken), "process A turned %v into an answer", broken)

	_, err = refused(nil)
	assert.NilError(t, err)
	granted, _ := refused(nil)
	assert.Check(t, cmp.Equal(granted.Result, "granted"))
}

// TestTheLeaseStoryStopsWhenBCannotTakeTheActor: once A has given the
// actor back, B's acquire must win; a B that is refused even then (here a
// stand-in that refuses every acquire) ends the story with an error, not
// with a result that reports B's token as 0.
func TestTheLeaseStoryStopsWhenBCannotTakeTheActor(t *testing.T) {
	_, a, _ := ledger(t)
	refusesAll := worker.Role{Name: "refuses-all", Run: func(_ context.Context, _ []string, link *worker.Link) error {
		return worker.Serve(link, func(request) (reply, error) {
			return reply{Result: "refused", Reason: string(actor.ActorLeaseHeld)}, nil
		})
	}}
	b, err := worker.StartInProcess(t.Context(), refusesAll)
	assert.NilError(t, err)
	t.Cleanup(b.Stop)

	out, err := leaseStory(t.Context(), a, b)

	assert.Check(t, err != nil, "B was refused after A released the actor, yet the story went on: %+v", out)
	assert.Check(t, cmp.Equal(out.ProcessBNowAcquires, acquired{}), "no token is reported for an acquire that was refused")
}
