package casclaim

// This file holds what setting the ledger up again must leave alone. A
// worker, a deploy script or a person runs CreateSchema on a ledger that
// is already in use: the tables exist and hold live claims. Setting up is
// for a ledger that has no tables yet; on one that has them it must change
// nothing.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestSettingUpAgainKeepsEveryMessageAndToken: worker-a holds msg-1 under
// its token, msg-2 is done and msg-3 is new, when mailbox.CreateSchema runs
// again on the same file. Every message reads back exactly as before, and
// the next claim's token is greater than every token issued before: a
// counter set back to 1 would hand worker-b a number a paused worker-a may
// still hold.
func TestSettingUpAgainKeepsEveryMessageAndToken(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	for _, id := range []string{"msg-1", "msg-2", "msg-3", "msg-4"} {
		l.Add(id, "Restock vanilla")
	}
	box := l.Mailbox(mailbox.NoLease)
	mailboxtest.Claim(t, box, "msg-1", "worker-a")
	done := mailboxtest.Claim(t, box, "msg-2", "worker-a")
	assert.NilError(t, box.Complete(t.Context(), "msg-2", "worker-a", done.Token))
	ids := []string{"msg-1", "msg-2", "msg-3"}
	before := map[string]mailbox.Message{}
	for _, id := range ids {
		before[id] = l.Get(id)
	}
	newest := l.Minted()

	assert.NilError(t, mailbox.CreateSchema(t.Context(), l.Connect()), "setting the mailbox up again on a ledger in use")

	for _, id := range ids {
		after, err := box.Get(t.Context(), id)
		assert.Check(t, err, "%s after the mailbox was set up again: want it still there", id)
		assert.Check(t, cmp.Equal(after, before[id]), "%s after the mailbox was set up again: want it exactly as before", id)
	}
	next := mailboxtest.Claim(t, box, "msg-4", "worker-b")
	assert.Check(t, next.Token > newest,
		"worker-b's claim after the mailbox was set up again got token %d; want greater than %d, the newest issued before", next.Token, newest)
}
