package naiveclaim

// These tests hold what chapter 1's claim stands on besides its UPDATE:
// a claim without a lease, a message id that names one message, a reader
// that holds up nobody, and a ledger that is opened for real.

import (
	"path/filepath"
	"testing"
	"testing/synctest"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// TestClaimWithoutALeaseNeverEnds: in this chapter a claim has no lease.
// worker-a's claim says it never expires, and the row agrees (no expiry).
// However much later they ask, msg-1 is not claimable, from either side:
// worker-b cannot take it over, and worker-a cannot claim it again, since
// there is no lease to renew and a second win would be a second
// generation of a claim that never ended.
func TestClaimWithoutALeaseNeverEnds(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)

	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")

	assert.Check(t, !won.Expires, "worker-a's claim without a lease says it expires at minute %d; want it never to expire", won.ExpiresAt)
	before := l.Row("msg-1")
	assert.Check(t, !l.Get("msg-1").Expires, "msg-1 on disk after a claim without a lease: %s; want no expiry", before)
	l.Clock.Set(1 << 40)
	for _, who := range []string{"worker-b", "worker-a"} {
		again, err := box.Claim(t.Context(), "msg-1", who)
		assert.Check(t, cmp.Equal(mailboxtest.Reason(t, err), mailbox.NotClaimable),
			"Claim(msg-1, %s) at minute %d, long after worker-a's claim without a lease, returned token %d (renewed %t); want refused not_claimable",
			who, l.Clock.Now(), again.Token, again.Renewed)
	}
	assert.Check(t, cmp.Equal(l.Row("msg-1"), before), "msg-1 after late claims by worker-b and worker-a: want it exactly as before")
}

// TestAddingAnExistingMessageIsAnErrorAndChangesNothing: an id names one
// message. Adding msg-1 again, while worker-a holds it, is an error, and
// the message on disk is exactly as it was: same body, same owner, same
// token. An Add that quietly replaced the row would hand msg-1 out again
// as NEW while worker-a still works on it.
func TestAddingAnExistingMessageIsAnErrorAndChangesNothing(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	mailboxtest.Claim(t, box, "msg-1", "worker-a")
	before := l.Row("msg-1")

	err := box.Add(t.Context(), "msg-1", "Restock chocolate")

	assert.Check(t, err != nil, "Add(msg-1) while msg-1 exists succeeded; want an error: an id names one message")
	assert.Check(t, cmp.Equal(l.Row("msg-1"), before), "msg-1 after it was added again: want it exactly as before")
}

// TestOpenReadDoesNotHoldUpAClaim: a person's sqlite3 shell in the middle
// of a SELECT, or a snapshot the runner takes while workers run, keeps a
// read open on the ledger. A worker's claim still commits at once; the
// ledger's write-ahead log lets readers and one writer work side by side.
func TestOpenReadDoesNotHoldUpAClaim(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	endRead := sqlitedbtest.HoldRead(t, l.Path, `SELECT id, state FROM messages`)
	defer endRead()

	_, err := l.Mailbox(mailbox.NoLease).Claim(t.Context(), "msg-1", "worker-a")

	assert.Check(t, err, "worker-a's claim of msg-1 while another connection holds a read open: want it committed, not kept waiting")
	assert.Check(t, cmp.Equal(l.Get("msg-1").Owner, "worker-a"), "owner of msg-1 after the claim made during the open read")
}

// TestLedgerThatCannotBeOpenedFailsAtOpen: a ledger path in a folder that
// does not exist fails when it is opened, not later, in the middle of the
// first claim a worker makes.
func TestLedgerThatCannotBeOpenedFailsAtOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "no-such-folder", "ledger.db")

	db, err := sqlitedb.Open(t.Context(), path)

	if err == nil {
		db.Close()
	}
	assert.Check(t, err != nil, "Open(%s) in a folder that does not exist succeeded; want it to fail there, before any claim", path)
}

// TestLedgerThatCannotBeOpenedLeavesNothingRunning: a worker may retry a
// path it cannot open for as long as it lives, so a failed Open must not
// leave anything behind per attempt: it closes the pool database/sql
// started for it, and with the pool the goroutine that would have dialled
// its connections. The call runs in a testing/synctest bubble, which
// fails the test if a goroutine the call started is still waiting when
// the call is over.
func TestLedgerThatCannotBeOpenedLeavesNothingRunning(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "no-such-folder", "ledger.db")
	synctest.Test(t, func(t *testing.T) {
		db, err := sqlitedb.Open(t.Context(), path)

		if err == nil {
			db.Close()
		}
		assert.Check(t, err != nil, "Open(%s) in a folder that does not exist succeeded; want it to fail there, leaving nothing running", path)
	})
}
