package casclaim

// This file repeats the terminal write with the very token that already
// succeeded: a worker that retries a completion it does not know landed
// must get an answer that names what happened, and change nothing.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestCompletingTwiceWithTheSameTokenIsRefusedAsTerminal: worker-a
// completes msg-1 under the token its claim returned, then presents the
// same owner and token again. The message is DONE, so the repeat is
// refused terminal, not accepted as a second completion and not blamed on
// a stale token; msg-1 stays DONE, owned by worker-a under that token.
func TestCompletingTwiceWithTheSameTokenIsRefusedAsTerminal(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")
	assert.NilError(t, box.Complete(t.Context(), "msg-1", "worker-a", won.Token), "set-up: worker-a's first completion")
	done := l.Get("msg-1")

	err := box.Complete(t.Context(), "msg-1", "worker-a", won.Token)

	assert.Check(t, cmp.Equal(mailboxtest.Reason(t, err), mailbox.Terminal),
		"Complete(msg-1, worker-a, token %d) a second time; want refused terminal: the message completes once", won.Token)
	assert.Check(t, cmp.DeepEqual(l.Get("msg-1"), mailbox.Message{
		ID: "msg-1", Body: "Restock vanilla", State: mailbox.Done, Owner: "worker-a", Token: won.Token,
	}), "msg-1 after the repeated completion; want it DONE, owned by worker-a under token %d", won.Token)
	assert.Check(t, cmp.DeepEqual(l.Get("msg-1"), done), "the repeated completion changed msg-1")
}
