package worker_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestDeadWorkerIsReportedAsDead: a worker that dies before answering is
// reported with its exit status, not as a bare end of file.
func TestDeadWorkerIsReportedAsDead(t *testing.T) {
	t.Parallel()
	p, err := worker.Start(t.Context(), exit3)
	assert.NilError(t, err)
	defer p.Stop()

	_, err = worker.Ask[message](p, message{N: 1})

	assert.ErrorContains(t, err, "exited with status 3 before answering")
}

// TestLinkCarriesMessagesBothWays: what the parent sends, an echo worker
// in another process sends back, it got the arguments the handshake
// handed it, and it exits cleanly when the parent is done with it.
func TestLinkCarriesMessagesBothWays(t *testing.T) {
	t.Parallel()
	p, err := worker.Start(t.Context(), echo, "ledger.db", "worker-a")
	assert.NilError(t, err)
	defer p.Stop()
	assert.Check(t, p.Pid != os.Getpid(), "the worker must be another process")

	got, err := worker.Ask[message](p, message{N: 1})
	assert.NilError(t, err)
	assert.DeepEqual(t, got, message{N: 1, Args: []string{"ledger.db", "worker-a"}, Pid: p.Pid})

	exit, err := p.Wait()
	assert.NilError(t, err)
	assert.Equal(t, exit, worker.Exit{Code: 0, Normal: true}, "how the echo worker ended")
}

// TestCancelKillsTheWorker: cancelling the context (what Ctrl-C does)
// kills a worker that is waiting for orders, promptly.
func TestCancelKillsTheWorker(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	p, err := worker.Start(ctx, echo)
	assert.NilError(t, err)
	defer p.Stop()

	cancel()
	select {
	case <-p.Done():
		assert.Check(t, !p.Exit().Normal, "a cancelled worker must not look like a clean exit: %+v", p.Exit())
	case <-time.After(10 * time.Second):
		t.Fatal("the worker was still running 10s after its context was cancelled")
	}
}

// TestInProcessWorkerPlaysTheSameRole: a worker started in this process
// gets its arguments, answers like a process, shares this process's pid,
// and ends cleanly, or killed, as a process would.
func TestInProcessWorkerPlaysTheSameRole(t *testing.T) {
	t.Parallel()
	p, err := worker.StartInProcess(t.Context(), echo, "ledger.db")
	assert.NilError(t, err)
	defer p.Stop()

	got, err := worker.Ask[message](p, message{N: 7})
	assert.NilError(t, err)
	assert.DeepEqual(t, got, message{N: 7, Args: []string{"ledger.db"}, Pid: os.Getpid()})
	exit, err := p.Wait()
	assert.NilError(t, err)
	assert.Equal(t, exit, worker.Exit{Code: 0, Normal: true}, "how an in-process worker that was done ended")

	q, err := worker.StartInProcess(t.Context(), echo)
	assert.NilError(t, err)
	assert.Equal(t, q.Kill(), worker.Exit{Code: -1, Normal: false}, "how a killed in-process worker ended")
}

// TestAnInProcessWorkerThatReturnedReleasesItsContext: once a worker's
// body has returned, the context it was given is cancelled, so anything
// the body left waiting on it (a timer, a watch, a connection) is
// released with the worker, not at the end of the parent's context.
func TestAnInProcessWorkerThatReturnedReleasesItsContext(t *testing.T) {
	t.Parallel()
	given := make(chan context.Context, 1)
	keep := worker.Role{Name: "keep-context", Run: func(ctx context.Context, _ []string, _ *worker.Link) error {
		given <- ctx
		return nil
	}}
	p, err := worker.StartInProcess(t.Context(), keep)
	assert.NilError(t, err)
	exit, err := p.Wait()
	assert.NilError(t, err)
	assert.Equal(t, exit, worker.Exit{Code: 0, Normal: true}, "how a body that returned nil ended")

	ctx := <-given
	assert.Check(t, ctx.Err() != nil, "the context of a worker whose body returned must be cancelled by the time Wait returns")
}

// TestKillingAnInProcessWorkerCancelsItsContext: Kill cancels an
// in-process worker's context, so a body busy with anything but its link
// (a query, a wait on the clock) stops at once, as a killed process does.
func TestKillingAnInProcessWorkerCancelsItsContext(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	busy := worker.Role{Name: "busy", Run: func(ctx context.Context, _ []string, _ *worker.Link) error {
		close(started)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-release:
			return errors.New("released by the test")
		}
	}}
	p, err := worker.StartInProcess(t.Context(), busy)
	assert.NilError(t, err)
	<-started
	killed := make(chan worker.Exit, 1)
	go func() { killed <- p.Kill() }()
	select {
	case exit := <-killed:
		assert.Equal(t, exit, worker.Exit{Code: -1, Normal: false}, "how a killed in-process worker ended")
	case <-time.After(10 * time.Second):
		close(release) // let the body and Kill return, so the test can end
		<-killed
		t.Fatal("a worker busy on its context was still running 10s after Kill: Kill must cancel the worker's context")
	}
}

// TestKillingAnInProcessWorkerStopsItsWaitForAMessage: Kill closes an
// in-process worker's link, so a body waiting for its next message stops
// at once, not when the 30 s wait for a message runs out. The test runs
// on testing/synctest's clock, which would show those 30 s without
// taking them.
func TestKillingAnInProcessWorkerStopsItsWaitForAMessage(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p, err := worker.StartInProcess(t.Context(), echo)
		assert.NilError(t, err)
		synctest.Wait() // the worker waits for its first message

		start := time.Now()
		exit := p.Kill()

		assert.Equal(t, exit, worker.Exit{Code: -1, Normal: false}, "how a killed in-process worker ended")
		assert.Equal(t, time.Since(start), time.Duration(0), "Kill waited for the worker's wait for a message to run out")
	})
}

// TestLinkCarriesAMessageOfHundredsOfKilobytes: one message may be far
// longer than a line scanner takes by default (64 KiB): a worker handed a
// 200 KiB argument echoes it back, whole, over its link.
func TestLinkCarriesAMessageOfHundredsOfKilobytes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200<<10)
	p, err := worker.Start(t.Context(), echo, long)
	assert.NilError(t, err)
	defer p.Stop()

	got, err := worker.Ask[message](p, message{N: 1})

	assert.NilError(t, err, "a 200 KiB message over the link")
	assert.Check(t, len(got.Args) == 1 && got.Args[0] == long, "the message came back cut or changed")
}

// TestAWorkerKnownDeadIsReportedAsNeverTold: asking a worker that has
// already died fails at the sending, and says the worker died before it
// was told, not that it was told and never answered.
func TestAWorkerKnownDeadIsReportedAsNeverTold(t *testing.T) {
	t.Parallel()
	p, err := worker.Start(t.Context(), exit3)
	assert.NilError(t, err)
	defer p.Stop()
	<-p.Done()

	_, err = worker.Ask[message](p, message{N: 1})

	assert.ErrorContains(t, err, "exited with status 3 before it was told")
}
