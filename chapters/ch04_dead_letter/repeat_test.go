package deadletter

// This file repeats a failure report with the very token that was already
// accepted: a worker that retries a dead-letter it does not know landed
// must not spend a second retry of the budget.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestDeadLetteringTwiceAfterARetryIsRefusedAsStale: worker-a's failure
// report sent msg-3 back to NEW and cleared its token. worker-a reports
// the same failure again under the same token: that token is no longer
// the message's (it has none), so the repeat is refused stale_token. It
// is not a second retry: retry_count stays 1, the message stays NEW with
// no owner and no token, and anyone may still claim it.
func TestDeadLetteringTwiceAfterARetryIsRefusedAsStale(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-3", "Call the supplier")
	box := l.Mailbox(lease)
	tok, first := failOnce(t, l, box, "msg-3", 100)
	assert.Assert(t, cmp.Equal(first, mailbox.Retried), "set-up: worker-a's first failure report")
	retried := l.Get("msg-3")

	v, err := box.DeadLetter(t.Context(), "msg-3", tok)

	assert.Check(t, cmp.Equal(mailboxtest.Reason(t, err), mailbox.StaleToken),
		"DeadLetter(msg-3, token %d) a second time, after the first sent msg-3 back to NEW = %q; want refused stale_token", tok, v)
	assert.Check(t, cmp.DeepEqual(l.Get("msg-3"), mailbox.Message{
		ID: "msg-3", Body: "Call the supplier", State: mailbox.New, RetryCount: 1,
	}), "msg-3 after the repeated failure report; want it NEW, unclaimed, with one retry spent")
	assert.Check(t, cmp.DeepEqual(l.Get("msg-3"), retried), "the repeated failure report changed msg-3")
	mailboxtest.Claim(t, l.Mailbox(lease), "msg-3", "worker-b")
}
