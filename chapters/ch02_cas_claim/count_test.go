package casclaim

// A compare-and-set has no verdict of its own: the count of rows its
// UPDATE changed is the verdict. These tests take that count away and pin
// what a worker hears then.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestAVerdictThatCannotBeReadIsAnError: the UPDATE of a claim or of a
// completion ran, but the driver cannot say how many rows it changed. The
// worker does not know whether it won, so the call fails with the
// driver's error: it is not a win, and not a refusal either (a refused
// worker drops its work). The transaction rolls back, so msg-1 and the
// token counter read back exactly as before.
func TestAVerdictThatCannotBeReadIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		claimed bool // worker-a claimed msg-1 before the count went
		what    string
		call    func(t *testing.T, box *mailbox.Mailbox, c mailbox.Claim) error
	}{{
		name: "claim",
		what: "worker-a's claim of msg-1, whose count of changed rows cannot be read",
		call: func(t *testing.T, box *mailbox.Mailbox, _ mailbox.Claim) error {
			_, err := box.Claim(t.Context(), "msg-1", "worker-a")
			return err
		},
	}, {
		name: "complete", claimed: true,
		what: "worker-a's completion of msg-1, whose count of changed rows cannot be read",
		call: func(t *testing.T, box *mailbox.Mailbox, c mailbox.Claim) error {
			return box.Complete(t.Context(), "msg-1", "worker-a", c.Token)
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			l.Add("msg-1", "Restock vanilla")
			var c mailbox.Claim
			if tc.claimed {
				c = mailboxtest.Claim(t, l.Mailbox(mailbox.NoLease), "msg-1", "worker-a")
			}
			before, minted := l.Row("msg-1"), l.Minted()
			box := mailbox.Open(sqlitedbtest.OpenCountless(t, l.Path), l.Clock, mailbox.NoLease)

			err := tc.call(t, box, c)

			mailboxtest.Failed(t, err, tc.what)
			assert.Check(t, errors.Is(err, sqlitedbtest.ErrNoCount), "%s: %v; want the driver's error about the count", tc.what, err)
			assert.Check(t, cmp.Equal(l.Row("msg-1"), before), "msg-1 after %s: want it exactly as before", tc.what)
			assert.Check(t, cmp.Equal(l.Minted(), minted), "tokens minted by %s: want none", tc.what)
		})
	}
}
