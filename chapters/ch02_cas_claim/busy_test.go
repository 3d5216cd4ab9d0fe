package casclaim

// These tests hold what a worker hears when the ledger is busy: another
// worker holds the write lock longer than this one will wait for it. A
// ledger opened with sqlitedb.Open waits five seconds; the waiting worker
// here is opened with a wait of a few milliseconds (sqlitedb.OpenWaiting),
// and the holder keeps the lock until the waiter has given up, so the
// order of events is fixed and nothing is timed.

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
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// shortWait is how long the waiting worker of these tests waits for the
// write lock before it gives up.
const shortWait = 20 * time.Millisecond

// claimWhileLocked has worker-b claim msg-2, on a connection that waits
// shortWait for the lock, while worker-a's claim of msg-1 is inside its
// transaction and holds the write lock. It returns worker-b's error, then
// worker-a's; worker-b's claim returns before worker-a's transaction
// goes on.
func claimWhileLocked(t *testing.T, l *mailboxtest.Ledger, waiting *mailbox.Mailbox) (waiterErr, holderErr error) {
	t.Helper()
	holder := l.Connect()
	var once sync.Once
	holder.PauseAfterBegin(func() {
		once.Do(func() { _, waiterErr = waiting.Claim(t.Context(), "msg-2", "worker-b") })
	})
	_, holderErr = mailbox.Open(holder, l.Clock, mailbox.NoLease).Claim(t.Context(), "msg-1", "worker-a")
	return waiterErr, holderErr
}

// TestWorkerKeptOutPastItsWaitIsToldBusy: worker-a's claim of msg-1 has
// begun its transaction and holds the write lock. worker-b's claim of
// msg-2, which waits 20 ms for the lock, gives up. worker-b is told the
// ledger was busy (sqlitedb.IsBusy): not a refusal it would act on, and not
// a win; msg-2 and the token counter are as they were. worker-a's claim
// commits, and then worker-b's same claim goes through: a busy ledger is
// a reason to try again later, and nothing of the first try is left.
func TestWorkerKeptOutPastItsWaitIsToldBusy(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	l.Add("msg-2", "Order cones")
	waiting := mailbox.Open(sqlitedbtest.OpenWaiting(t, l.Path, shortWait), l.Clock, mailbox.NoLease)
	before, minted := l.Row("msg-2"), l.Minted()

	waiterErr, holderErr := claimWhileLocked(t, l, waiting)

	assert.Assert(t, waiterErr != nil, "worker-b's claim of msg-2 while worker-a held the write lock past worker-b's wait succeeded; want it to give up")
	r, refused := mailbox.ReasonOf(waiterErr)
	assert.Check(t, !refused, "worker-b's claim that gave up waiting for the lock was refused (%s); want an error: nobody decided anything about msg-2", r)
	assert.Check(t, sqlitedb.IsBusy(waiterErr), "worker-b's claim that gave up waiting for the lock = %v; want it called busy", waiterErr)
	assert.Check(t, cmp.Equal(l.Row("msg-2"), before), "msg-2 after a claim that gave up waiting for the lock: want it exactly as before")
	assert.NilError(t, holderErr, "worker-a's claim of msg-1, which held the lock: want it committed")
	assert.Check(t, cmp.Equal(l.Minted(), minted+1), "tokens minted after worker-a's claim and worker-b's busy one: want worker-a's alone")
	again, err := waiting.Claim(t.Context(), "msg-2", "worker-b")
	assert.NilError(t, err, "worker-b's claim of msg-2, tried again once the lock was free")
	assert.Check(t, cmp.Equal(l.Get("msg-2").Token, again.Token), "the token on msg-2 after worker-b tried again")
}

// TestOnlyALockHeldTooLongIsBusy: "busy" means one thing, that the write
// lock stayed taken past the wait, and a worker that retries on it must
// not retry on anything else. sqlitedb.IsBusy is true of a claim that gave
// up waiting for the lock, and false of a refusal, of a duplicate id's
// constraint failure, of a cancelled claim and of no error at all.
func TestOnlyALockHeldTooLongIsBusy(t *testing.T) {
	t.Parallel()
	l := mailboxtest.New(t)
	l.Add("msg-1", "Restock vanilla")
	l.Add("msg-2", "Order cones")
	box := l.Mailbox(mailbox.NoLease)
	busy, _ := claimWhileLocked(t, l, mailbox.Open(sqlitedbtest.OpenWaiting(t, l.Path, shortWait), l.Clock, mailbox.NoLease))
	_, refusal := box.Claim(t.Context(), "msg-1", "worker-c") // worker-a holds it
	duplicate := box.Add(t.Context(), "msg-1", "Restock vanilla")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, cancelled := box.Claim(ctx, "msg-2", "worker-c")

	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"lock_held_past_the_wait", busy, true},
		{"refusal", refusal, false},
		{"duplicate_id", duplicate, false},
		{"cancelled", cancelled, false},
	} {
		assert.Assert(t, tc.err != nil, "set-up: the %s gave no error", tc.name)
		assert.Check(t, cmp.Equal(sqlitedb.IsBusy(tc.err), tc.want), "IsBusy(%s: %v)", tc.name, tc.err)
	}
	assert.Check(t, !sqlitedb.IsBusy(nil), "IsBusy(nil): want false, no error is not a busy ledger")
	assert.Check(t, !sqlitedb.IsBusy(errors.New("database is locked")), "IsBusy of an error that only says the words: want false, busy is SQLite's code, not its text")
}

// TestWorkerWaitsFiveSecondsForTheLockByDefault: a ledger opened with
// sqlitedb.Open waits five seconds (SQLite's busy_timeout, 5000 ms) for
// another connection's write lock, on every connection it uses: the one a
// transaction runs on and the ones reads run on. A shorter wait makes a
// busy but healthy ledger look stuck; a test that wants a shorter one asks
// for it with OpenWaiting, which the same pragma then reports.
func TestWorkerWaitsFiveSecondsForTheLockByDefault(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	l := mailboxtest.New(t)
	for _, tc := range []struct {
		name string
		db   *sqlitedb.DB
		want int
	}{
		{"open", l.Connect(), 5000},
		{"open_waiting", sqlitedbtest.OpenWaiting(t, l.Path, shortWait), 20},
	} {
		var read, inTx int
		assert.NilError(t, tc.db.QueryRow(ctx, `PRAGMA busy_timeout`).Scan(&read))
		assert.NilError(t, tc.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
			return tx.QueryRow(ctx, `PRAGMA busy_timeout`).Scan(&inTx)
		}))
		assert.Check(t, cmp.Equal(read, tc.want), "milliseconds a read connection of a ledger opened by %s waits for the write lock", tc.name)
		assert.Check(t, cmp.Equal(inTx, tc.want), "milliseconds a transaction of a ledger opened by %s waits for the write lock", tc.name)
	}
}
