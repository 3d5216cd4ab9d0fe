package deadletter

// These tests hold the budget and the terminal states against the two
// things chapter 3 taught to distrust: a worker's memory of the row, and
// the moment between reading and writing.

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestConcurrentFailureReportsStayWithinBudget: msg-6 was never claimed
// and has retried twice; two failure reports for it arrive together. The
// first pauses just before its transaction while the second goes through
// (the third retry, the last the budget allows). When the first resumes it
// must judge the budget by the row as it is now, inside its own
// transaction, and park the message in DEAD, not retry it a fourth time.
func TestConcurrentFailureReportsStayWithinBudget(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-6", "Malformed order")
	for range mailbox.MaxRetries - 1 {
		_, err := l.Mailbox(lease).DeadLetter(t.Context(), "msg-6", mailbox.NoToken)
		assert.NilError(t, err, "set-up: a failure report for the never-claimed msg-6")
	}

	second := l.Mailbox(lease)
	var secondVerdict mailbox.Verdict
	var once sync.Once
	db := l.Connect()
	db.PauseBeforeTransactions(func() {
		once.Do(func() {
			var err error
			secondVerdict, err = second.DeadLetter(t.Context(), "msg-6", mailbox.NoToken)
			assert.NilError(t, err, "the second failure report, while the first is paused")
		})
	})
	firstVerdict, err := mailbox.Open(db, l.Clock, lease).DeadLetter(t.Context(), "msg-6", mailbox.NoToken)
	assert.NilError(t, err, "the first failure report, resumed")

	msg := l.Get("msg-6")
	assert.Assert(t, msg.RetryCount <= mailbox.MaxRetries,
		"retry_count %d after two concurrent failure reports of msg-6 at %d retries: past the budget of %d (verdicts %q then %q)",
		msg.RetryCount, mailbox.MaxRetries-1, mailbox.MaxRetries, secondVerdict, firstVerdict)
	assert.Equal(t, secondVerdict, mailbox.Retried, "the report that went through first used the last retry")
	assert.Equal(t, firstVerdict, mailbox.DeadLettered,
		"the paused report, resumed after the budget ran out: it must read the budget inside its own transaction")
	assert.Equal(t, msg.State, mailbox.Dead, "state of msg-6 after the budget ran out")
}

// TestDeadMessageCannotBeRenewedByItsLastOwner: worker-a's last failure
// parks msg-3 in DEAD at minute 103, inside the lease its claim at 103
// took. A claim by worker-a at minute 104 is refused: DEAD is final, and
// the owner and lease columns the row still holds do not make it a
// renewal.
func TestDeadMessageCannotBeRenewedByItsLastOwner(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)
	last, _ := failTimes(t, l, box, "msg-3", mailbox.MaxRetries+1)
	before := l.Get("msg-3")

	l.Clock.Set(104)
	again, err := box.Claim(t.Context(), "msg-3", "worker-a")

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable,
		"worker-a's claim at minute 104 of msg-3, dead-lettered at 103 under its token %d, returned token %d, renewed %v; want refused not_claimable",
		last, again.Token, again.Renewed)
	assert.DeepEqual(t, l.Get("msg-3"), before)
	assert.Equal(t, l.Get("msg-3").State, mailbox.Dead, "state of msg-3 after its last owner tried to claim it again")
}

// TestNoWriterSlipsIntoAFailureReport: the first of two failure reports
// for msg-6, at two retries, has begun its transaction and not yet read
// the budget. The second, on another connection, cannot commit in that
// moment: it waits for the write lock (here until it gives up). The
// transaction took the lock at BEGIN, before its first read, so what it
// reads stays true until it writes. The second report, sent again once
// the first is done, finds the budget spent.
func TestNoWriterSlipsIntoAFailureReport(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	l.Add("msg-6", "Malformed order")
	for range mailbox.MaxRetries - 1 {
		_, err := l.Mailbox(lease).DeadLetter(ctx, "msg-6", mailbox.NoToken)
		assert.NilError(t, err, "set-up: a failure report for the never-claimed msg-6")
	}
	second := l.Mailbox(lease)
	var secondErr error
	var once sync.Once
	db := l.Connect()
	db.PauseAfterBegin(func() {
		once.Do(func() {
			// The bound only ends the second report's wait; nothing is timed.
			wait, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
			_, secondErr = second.DeadLetter(wait, "msg-6", mailbox.NoToken)
		})
	})

	firstVerdict, err := mailbox.Open(db, l.Clock, lease).DeadLetter(ctx, "msg-6", mailbox.NoToken)

	assert.Check(t, errors.Is(secondErr, context.DeadlineExceeded),
		"the second failure report, sent while the first one's transaction was open = %v; want it kept waiting until it gave up", secondErr)
	assert.Check(t, err, "the first failure report")
	assert.Check(t, cmp.Equal(firstVerdict, mailbox.Retried), "the first report's verdict: it used the last retry")
	secondVerdict, err := second.DeadLetter(ctx, "msg-6", mailbox.NoToken)
	assert.Check(t, err, "the second failure report, sent again")
	assert.Check(t, cmp.Equal(secondVerdict, mailbox.DeadLettered), "the second report's verdict, sent again after the budget ran out")
}
