package deadletter

// These tests break the ledger under a failure report, with a trigger
// that aborts the write, a row that cannot be read, or a worker that
// gives up once the report's transaction has begun. A report that could
// not be recorded is an error: it spends no retry, buries nothing, and is
// never taken for a refusal.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestFailedFailureReportIsAnErrorAndChangesNothing: worker-a holds msg-3
// and reports that its work failed, but the report cannot be recorded:
// the UPDATE fails, the row cannot be read to judge the budget, the
// UPDATE's count of changed rows (its verdict) cannot be read, or the
// worker's context is cancelled once the report's transaction has begun.
// DeadLetter returns an error with no verdict, and msg-3 is exactly as it
// was: still worker-a's, no retry counted.
func TestFailedFailureReportIsAnErrorAndChangesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// breaks damages the ledger, or arranges what happens inside the
		// report's transaction, and returns the context to report under.
		breaks func(t *testing.T, l *mailboxtest.Ledger, inside *func()) context.Context
		// countless: the report runs on a pool whose counts of changed
		// rows cannot be read.
		countless bool
	}{{
		name: "update_fails",
		breaks: func(t *testing.T, l *mailboxtest.Ledger, _ *func()) context.Context {
			l.BreakWrites("UPDATE", "messages")
			return t.Context()
		},
	}, {
		name: "unreadable_row",
		breaks: func(t *testing.T, l *mailboxtest.Ledger, _ *func()) context.Context {
			l.Garble("msg-3")
			return t.Context()
		},
	}, {
		name:      "count_unread",
		breaks:    func(t *testing.T, _ *mailboxtest.Ledger, _ *func()) context.Context { return t.Context() },
		countless: true,
	}, {
		name: "cancelled_inside_the_transaction",
		breaks: func(t *testing.T, _ *mailboxtest.Ledger, inside *func()) context.Context {
			ctx, cancel := context.WithCancel(t.Context())
			t.Cleanup(cancel)
			*inside = cancel
			return ctx
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := mailboxtest.New(t)
			l.Add("msg-3", "Call the supplier")
			c := mailboxtest.Claim(t, l.Mailbox(lease), "msg-3", "worker-a")
			db := l.Connect() // a fresh connection: the report is its first transaction
			if tc.countless {
				db = sqlitedbtest.OpenCountless(t, l.Path)
			}
			var inside func()
			db.PauseAfterBegin(func() {
				if inside != nil {
					inside()
				}
			})
			ctx := tc.breaks(t, l, &inside)
			before := l.Row("msg-3")

			v, err := mailbox.Open(db, l.Clock, lease).DeadLetter(ctx, "msg-3", c.Token)

			r, refused := mailbox.ReasonOf(err)
			assert.Check(t, err != nil && !refused,
				"DeadLetter(msg-3, token %d), %s = %q, %v (refusal reason %q); want an error, no verdict and no refusal", c.Token, tc.name, v, err, r)
			assert.Check(t, cmp.Equal(v, mailbox.Verdict("")), "verdict of a failure report that was not recorded, %s", tc.name)
			assert.Check(t, cmp.Equal(l.Row("msg-3"), before), "msg-3 after a failure report that was not recorded, %s: want it exactly as before", tc.name)
		})
	}
}
