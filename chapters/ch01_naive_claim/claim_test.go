package naiveclaim

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestReadThenWriteLetsBothWorkersBelieve shows the bug: two workers on
// separate connections both read msg-1 before either writes, both decide
// to claim, and both writes succeed. Two believers, one owner on disk.
func TestReadThenWriteLetsBothWorkersBelieve(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	workers := []struct {
		name string
		db   *sqlitedb.DB
		saw  string
	}{{name: "worker-a", db: l.Connect()}, {name: "worker-b", db: l.Connect()}}

	// Both reads happen before either write: what two busy processes do.
	for i := range workers {
		saw, err := ReadState(ctx, workers[i].db, "msg-1")
		assert.NilError(t, err)
		workers[i].saw = saw
	}
	believers := 0
	for _, w := range workers {
		if DecideToClaim(w.saw) {
			assert.NilError(t, WriteClaim(ctx, w.db, "msg-1", w.name))
			believers++
		}
	}

	assert.Equal(t, believers, 2, "workers that believe they own msg-1 after read-then-write")
	assert.Equal(t, l.Get("msg-1").Owner, "worker-b", "owner on disk: the last writer")
}

// TestCompareAndSetAdmitsOneOwner runs the same interleaving through
// mailbox.Claim: both workers have seen NEW, both claim, and the
// compare-and-set lets exactly one of them believe it owns the message;
// the one on disk.
func TestCompareAndSetAdmitsOneOwner(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	a, b := l.Mailbox(mailbox.NoLease), l.Mailbox(mailbox.NoLease)
	for _, box := range []*mailbox.Mailbox{a, b} {
		msg, err := box.Get(ctx, "msg-1")
		assert.NilError(t, err)
		assert.Equal(t, msg.State, mailbox.New, "both workers must see NEW before either claims")
	}

	var believers []string
	for _, w := range []struct {
		name string
		box  *mailbox.Mailbox
	}{{"worker-a", a}, {"worker-b", b}} {
		_, err := w.box.Claim(ctx, "msg-1", w.name)
		if mailboxtest.Reason(t, err) == mailboxtest.Accepted {
			believers = append(believers, w.name)
		}
	}

	assert.Assert(t, cmp.DeepEqual(believers, []string{"worker-a"}), "workers that believe they own msg-1 after both saw NEW and both claimed")
	assert.Equal(t, l.Get("msg-1").Owner, "worker-a", "owner on disk must be the one believer")
}

// TestRefusedClaimSaysNotClaimable: the loser learns it lost, as a reason
// it can switch on, not as a success.
func TestRefusedClaimSaysNotClaimable(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	mailboxtest.Claim(t, l.Mailbox(mailbox.NoLease), "msg-1", "worker-a")

	_, err := l.Mailbox(mailbox.NoLease).Claim(t.Context(), "msg-1", "worker-b")

	assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable,
		"Claim(msg-1, worker-b) while worker-a owns it: want refused not_claimable")
}

// TestDoneMessageCannotBeClaimedAgain: a completed message is finished
// business; not even its last owner can claim it again.
func TestDoneMessageCannotBeClaimedAgain(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	box := l.Mailbox(mailbox.NoLease)
	won := mailboxtest.Claim(t, box, "msg-1", "worker-a")
	assert.NilError(t, box.Complete(ctx, "msg-1", "worker-a", won.Token))

	for _, who := range []string{"worker-a", "worker-b"} {
		_, err := box.Claim(ctx, "msg-1", who)
		assert.Equal(t, mailboxtest.Reason(t, err), mailbox.NotClaimable,
			"Claim(msg-1, %s) after msg-1 is DONE: want refused not_claimable", who)
	}
	assert.Equal(t, l.Get("msg-1").State, mailbox.Done, "state of msg-1 after claims on a DONE message")
}
