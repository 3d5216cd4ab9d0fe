package worker_test

import (
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// These tests shorten the wait for a worker, shared by the whole package:
// they do not run in parallel.

// TestAWorkerThatSaysNothingIsAnErrorNotAHang: a worker that never
// answers makes Ask fail once the wait runs out, saying so; the parent
// is never left waiting forever.
func TestAWorkerThatSaysNothingIsAnErrorNotAHang(t *testing.T) {
	worker.ShortenReplyTimeout(t, 300*time.Millisecond)
	p, err := worker.Start(t.Context(), stubborn)
	assert.NilError(t, err)
	defer p.Stop()

	_, err = worker.Ask[message](p, message{N: 1})

	assert.ErrorContains(t, err, "no message within 300ms")
}

// TestAWorkerThatWillNotExitIsKilledAndReported: a worker that does not
// exit once its parent is done with it is killed when the wait runs out,
// and Wait says so: it never returns as if the worker had ended by
// itself.
func TestAWorkerThatWillNotExitIsKilledAndReported(t *testing.T) {
	worker.ShortenReplyTimeout(t, 300*time.Millisecond)
	p, err := worker.Start(t.Context(), stubborn)
	assert.NilError(t, err)
	defer p.Stop()

	exit, err := p.Wait()

	assert.ErrorContains(t, err, "did not exit within 300ms; killed")
	assert.Equal(t, exit, worker.Exit{Code: -1}, "how the stubborn worker ended")
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Wait returned while the stubborn worker was still running")
	}
}

// TestWaitCleanReportsAnEndThatWasNotClean: WaitClean is an error for a
// worker that exited with a status other than 0, naming the status, and
// for one that had to be killed, saying the wait ran out, not merely how
// it died.
func TestWaitCleanReportsAnEndThatWasNotClean(t *testing.T) {
	p, err := worker.Start(t.Context(), exit3)
	assert.NilError(t, err)
	defer p.Stop()
	assert.ErrorContains(t, p.WaitClean(), "exited with status 3", "a worker that exited 3")

	// Only the worker that will not exit is given the short wait: the
	// other must have all the time it needs on a busy machine.
	worker.ShortenReplyTimeout(t, 300*time.Millisecond)
	q, err := worker.Start(t.Context(), stubborn)
	assert.NilError(t, err)
	defer q.Stop()
	assert.ErrorContains(t, q.WaitClean(), "did not exit within 300ms; killed", "a worker that would not exit")
}

// TestASilentPeerIsAnErrorAfterExactlyThirtySeconds: the bound on every
// wait for a worker is 30 s, on the tick: a Recv from a peer that says
// nothing is still waiting 1 ns before it, and fails at it. Time here is
// testing/synctest's, so the test takes no real time.
func TestASilentPeerIsAnErrorAfterExactlyThirtySeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		l := worker.NewLink(r, io.Discard)
		defer l.Close()
		defer w.Close()
		got := make(chan error, 1)
		var m message
		go func() { got <- l.Recv(&m) }()

		time.Sleep(30*time.Second - time.Nanosecond) // the bubble's clock
		synctest.Wait()
		select {
		case err := <-got:
			t.Fatalf("Recv gave up before 30 s: %v", err)
		default:
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		select {
		case err := <-got:
			assert.ErrorContains(t, err, "no message within 30s")
		default:
			t.Fatal("Recv from a silent peer was still waiting at 30 s")
		}
	})
}

// TestALinkClosedUnderALiveWorkerIsAnError: a parent that closed its
// link and then asks gets an error naming the worker, not a reply.
func TestALinkClosedUnderALiveWorkerIsAnError(t *testing.T) {
	p, err := worker.Start(t.Context(), stubborn)
	assert.NilError(t, err)
	defer p.Stop()
	p.Close()

	err = p.Recv(&message{})

	assert.ErrorContains(t, err, "link closed")
	assert.Check(t, cmp.Contains(err.Error(), "worker "), "the error names the worker: %v", err)
}

// TestAWorkerWhoseWorkFailsExitsOneAndSaysWhy: a worker whose handler
// fails exits with status 1, its parent learns it died before answering,
// and the worker's reason is on stderr.
func TestAWorkerWhoseWorkFailsExitsOneAndSaysWhy(t *testing.T) {
	t.Parallel()
	p, err := worker.Start(t.Context(), refuse)
	assert.NilError(t, err)
	defer p.Stop()

	_, err = worker.Ask[message](p, message{N: 1})

	assert.ErrorContains(t, err, "exited with status 1 before answering")
}

// TestAnInProcessWorkerWhoseWorkFailsEndsWithStatusOne: a worker started in
// this process whose body fails ends as a process would, with status 1.
func TestAnInProcessWorkerWhoseWorkFailsEndsWithStatusOne(t *testing.T) {
	t.Parallel()
	p, err := worker.StartInProcess(t.Context(), refuse)
	assert.NilError(t, err)
	defer p.Stop()
	assert.Equal(t, p.Exit(), worker.Exit{Code: -1}, "how a worker that has not ended ended")

	_, err = worker.Ask[message](p, message{N: 1})
	assert.ErrorContains(t, err, "returned an error before answering")
	assert.Equal(t, p.Exit(), worker.Exit{Code: 1, Normal: true})
}

// TestAMalformedMessageIsAnError: a line that is not the message the
// receiver expects is an error naming it, never a zero message.
func TestAMalformedMessageIsAnError(t *testing.T) {
	t.Parallel()
	l := worker.NewLink(strings.NewReader("the ledger is on fire\n"), nopWriter{})
	defer l.Close()
	var m message

	err := l.Recv(&m)

	assert.ErrorContains(t, err, `receive "the ledger is on fire"`)
}

// nopWriter discards what is sent.
type nopWriter struct{}

func (nopWriter) Write(b []byte) (int, error) { return len(b), nil }
