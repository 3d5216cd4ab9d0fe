// Package deadletter is chapter 4: a retry budget, a null-safe token check
// on the retry itself, and DEAD as a terminal state that keeps everything.
package deadletter

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

const lease = 15

// failOnce claims msg for worker-a at the given minute and reports the
// work failed, presenting the token the claim returned.
func failOnce(t testing.TB, l *mailboxtest.Ledger, box *mailbox.Mailbox, id string, minute int64) (int64, mailbox.Verdict) {
	t.Helper()
	l.Clock.Set(minute)
	c := mailboxtest.Claim(t, box, id, "worker-a")
	v, err := box.DeadLetter(t.Context(), id, c.Token)
	assert.NilError(t, err, "DeadLetter(%s, token %d) by the holder at minute %d", id, c.Token, minute)
	return c.Token, v
}

// failTimes makes n failures of message id in a row, one a minute from
// minute 100, and returns the last failure's token and every verdict.
func failTimes(t testing.TB, l *mailboxtest.Ledger, box *mailbox.Mailbox, id string, n int) (int64, []mailbox.Verdict) {
	t.Helper()
	var last int64
	var verdicts []mailbox.Verdict
	for i := range n {
		tok, v := failOnce(t, l, box, id, int64(100+i))
		last, verdicts = tok, append(verdicts, v)
	}
	return last, verdicts
}

// TestThreeRetriesThenDead: with a budget of 3 the first three failures
// send msg-3 back to NEW and the fourth parks it in DEAD.
func TestThreeRetriesThenDead(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)

	_, got := failTimes(t, l, box, "msg-3", mailbox.MaxRetries+1)

	want := []mailbox.Verdict{mailbox.Retried, mailbox.Retried, mailbox.Retried, mailbox.DeadLettered}
	assert.Assert(t, cmp.DeepEqual(got, want), "verdicts of four failures against a budget of 3")
	msg := l.Get("msg-3")
	assert.Equal(t, msg.State, mailbox.Dead, "state after %d failures", len(got))
	assert.Equal(t, msg.RetryCount, mailbox.MaxRetries, "retry_count of the DEAD message")
}

// TestRetryClearsTheClaim: a retry puts the message back to NEW with no
// owner, no token and no lease expiry, so anyone may claim it next; the
// body stays and the retry is counted.
func TestRetryClearsTheClaim(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)

	failOnce(t, l, box, "msg-3", 100)

	msg := l.Get("msg-3")
	assert.Equal(t, msg.State, mailbox.New, "state after one retry")
	assert.Equal(t, msg.Owner, "", "owner after a retry")
	assert.Equal(t, msg.Token, mailbox.NoToken, "token after a retry")
	assert.Assert(t, !msg.Expires, "a retry left a lease on msg-3 (expires_at %d); want none: the message is NEW and anyone may claim it", msg.ExpiresAt)
	assert.Equal(t, msg.RetryCount, 1, "retry_count after one retry")
	assert.DeepEqual(t, msg, mailbox.Message{ID: "msg-3", Body: "Call the supplier", State: mailbox.New, RetryCount: 1})
	mailboxtest.Claim(t, l.Mailbox(lease), "msg-3", "worker-b")
}

// TestDeadKeepsBodyAndHistory: DEAD is a parking spot a person inspects,
// not a deletion: the body and the retry count are still there.
func TestDeadKeepsBodyAndHistory(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)
	failTimes(t, l, box, "msg-3", mailbox.MaxRetries+1)

	msg, err := box.Get(t.Context(), "msg-3")

	assert.NilError(t, err, "msg-3 after it was dead-lettered: want it kept, not deleted")
	assert.Equal(t, msg.Body, "Call the supplier", "body of the DEAD message")
	assert.Equal(t, msg.RetryCount, mailbox.MaxRetries, "retry history of the DEAD message")
}

// TestDeadIsTerminal: nothing moves a DEAD message again: not another
// dead-letter with its last token, not a claim, not a completion.
func TestDeadIsTerminal(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)
	last, _ := failTimes(t, l, box, "msg-3", mailbox.MaxRetries+1)

	v, err := box.DeadLetter(ctx, "msg-3", last)
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.Terminal,
		"DeadLetter(msg-3, token %d) on a DEAD message = %q; want refused terminal", last, v)
	l.Clock.Set(200)
	_, err = box.Claim(ctx, "msg-3", "worker-b")
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable, "Claim of a DEAD message")
	err = box.Complete(ctx, "msg-3", "worker-a", last)
	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.Terminal, "Complete of a DEAD message")
	assert.Equal(t, l.Get("msg-3").State, mailbox.Dead, "state of msg-3 after a dead-letter, a claim and a completion were tried on it")
}

// TestCompletedMessageCannotBeRetried: a DONE message is finished; a late
// failure report with its token must not send it back to NEW.
func TestCompletedMessageCannotBeRetried(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)
	c := mailboxtest.Claim(t, box, "msg-3", "worker-a")
	assert.NilError(t, box.Complete(ctx, "msg-3", "worker-a", c.Token))

	v, err := box.DeadLetter(ctx, "msg-3", c.Token)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.Terminal,
		"DeadLetter(msg-3, token %d) after msg-3 was DONE = %q; want refused terminal", c.Token, v)
	assert.Equal(t, l.Get("msg-3").State, mailbox.Done, "state of a DONE message after a late failure report")
}

// TestStaleCopyCannotRetry: worker-a's copy of msg-4 was read before
// worker-b's claim took the row over. A retry presenting the old token is
// refused and changes nothing.
func TestStaleCopyCannotRetry(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-4", "Reorder sprinkles")
	box := l.Mailbox(lease)
	old := mailboxtest.Claim(t, box, "msg-4", "worker-a")
	l.Clock.Set(lease)
	cur := mailboxtest.Claim(t, box, "msg-4", "worker-b")

	v, err := box.DeadLetter(t.Context(), "msg-4", old.Token)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"stale token %d retried msg-4 (verdict %q) after token %d was issued to worker-b", old.Token, v, cur.Token)
	msg := l.Get("msg-4")
	assert.Equal(t, msg.State, mailbox.Claimed, "state after the stale retry")
	assert.Equal(t, msg.Owner, "worker-b", "owner after the stale retry")
	assert.Equal(t, msg.Token, cur.Token, "token after the stale retry")
	assert.Equal(t, msg.RetryCount, 0, "retry_count after the stale retry")
}

// TestStaleCopyCannotDeadLetter: the parking step is fenced too. msg-3 has
// used its budget; worker-a's stale copy says "give up on it" after
// worker-b took the row over. Refused; worker-b's claim stands.
func TestStaleCopyCannotDeadLetter(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)
	failTimes(t, l, box, "msg-3", mailbox.MaxRetries)
	l.Clock.Set(200)
	old := mailboxtest.Claim(t, box, "msg-3", "worker-a")
	l.Clock.Set(200 + lease)
	cur := mailboxtest.Claim(t, box, "msg-3", "worker-b")

	v, err := box.DeadLetter(t.Context(), "msg-3", old.Token)

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.StaleToken,
		"stale token %d dead-lettered msg-3 (verdict %q) after token %d was issued to worker-b", old.Token, v, cur.Token)
	msg := l.Get("msg-3")
	assert.Equal(t, msg.State, mailbox.Claimed, "state after the stale dead-letter")
	assert.Equal(t, msg.Owner, "worker-b", "owner after the stale dead-letter")
	assert.Equal(t, msg.Token, cur.Token, "token after the stale dead-letter")
}

// TestUnclaimedMessageDeadLettersWithNoToken: a message nobody claimed
// carries no token (NULL). Presenting NoToken matches it, because the
// check is null-safe (IS, not =).
func TestUnclaimedMessageDeadLettersWithNoToken(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-6", "Malformed order")
	box := l.Mailbox(lease)

	v, err := box.DeadLetter(t.Context(), "msg-6", mailbox.NoToken)

	assert.Equal(t, mailboxtest.Reason(t, err), mailboxtest.Accepted,
		"DeadLetter(msg-6, NoToken) on a never-claimed message: want a retry, got a refusal (NULL = NULL is not true in SQL)")
	assert.Equal(t, v, mailbox.Retried, "verdict for a never-claimed message's first failure")
	assert.Equal(t, l.Get("msg-6").RetryCount, 1, "retry_count after dead-lettering a never-claimed message")
}

// TestFailureReportMovesOnlyItsOwnMessage: msg-6 and msg-7 were never
// claimed, so both carry no token. Four failure reports for msg-6, each
// presenting NoToken, retry it three times and then park it, and msg-7,
// which matches the same token check, stays exactly as it was.
func TestFailureReportMovesOnlyItsOwnMessage(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-6", "Malformed order")
	l.Add("msg-7", "Order wafers")
	box := l.Mailbox(lease)
	before := l.Row("msg-7")

	var got []mailbox.Verdict
	for range mailbox.MaxRetries + 1 {
		v, err := box.DeadLetter(t.Context(), "msg-6", mailbox.NoToken)
		assert.Check(t, err, "DeadLetter(msg-6, NoToken) after verdicts %q", got)
		got = append(got, v)
	}

	want := []mailbox.Verdict{mailbox.Retried, mailbox.Retried, mailbox.Retried, mailbox.DeadLettered}
	assert.Check(t, cmp.DeepEqual(got, want), "verdicts of four failure reports for msg-6 beside the unclaimed msg-7")
	assert.Check(t, cmp.Equal(l.Row("msg-7"), before), "msg-7 after four failure reports for msg-6: want it exactly as before")
}
