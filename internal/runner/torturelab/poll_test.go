package torturelab

import (
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// pollLedger returns a ledger of msg-1 to msg-12, added in order (rowid i
// is msg-i): msg-2's lease has passed, msg-3 is held for a minute, msg-4
// and msg-11 are DONE (after leases that have passed), and the others are
// NEW.
func pollLedger(t *testing.T) *sqlitedb.DB {
	t.Helper()
	ctx := t.Context()
	ids := make([]string, 12)
	for i := range ids {
		ids[i] = messageID(i + 1)
	}
	db, box := newLedger(t, filepath.Join(t.TempDir(), ledgerFile), clock.Wall{}, 60_000, ids...)
	// A claim made at instant 1000 of the wall clock's milliseconds: its
	// 10 ms lease passed in 1970.
	long := &clock.Logical{}
	long.Set(1000)
	old := mailbox.Open(db, long, 10)
	_, err := old.Claim(ctx, "msg-2", "worker-a")
	assert.NilError(t, err)
	_, err = box.Claim(ctx, "msg-3", "worker-b")
	assert.NilError(t, err)
	// msg-4 was completed under a lease that has passed since: DONE, its
	// expiry kept.
	for _, id := range []string{"msg-4", "msg-11"} {
		done, err := old.Claim(ctx, id, "worker-b")
		assert.NilError(t, err)
		assert.NilError(t, old.Complete(ctx, id, "worker-b", done.Token))
	}
	return db
}

// ids returns the ids of found.
func ids(found []candidate) []string {
	var out []string
	for _, c := range found {
		out = append(out, c.id)
	}
	return out
}

// TestAPollFindsWhatAClaimCouldTakeInRowOrder: a poll returns the NEW
// messages and those whose lease has passed, and no held or ended one,
// in the order they were added, at most pollWindow of them, from where
// the worker's last poll found its first; and it moves there.
func TestAPollFindsWhatAClaimCouldTakeInRowOrder(t *testing.T) {
	t.Parallel()
	w := &tortureWorker{db: pollLedger(t), clk: clock.Wall{}, from: 1}

	found, err := w.poll(t.Context())

	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(ids(found), []string{"msg-1", "msg-2", "msg-5", "msg-6", "msg-7", "msg-8", "msg-9", "msg-10"}),
		"a poll from the first row: NEW and lease-passed messages, %d at most", pollWindow)
	assert.Check(t, cmp.Equal(found[1].state, mailbox.Claimed), "msg-2's state as polled")
	assert.Check(t, cmp.Equal(found[0].state, mailbox.New), "msg-1's state as polled")

	w.from = 9
	found, err = w.poll(t.Context())
	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(ids(found), []string{"msg-9", "msg-10", "msg-12"}), "a poll from row 9")
	assert.Check(t, cmp.Equal(w.from, int64(9)), "where the next poll starts")

	w.from = 11
	found, err = w.poll(t.Context())
	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(ids(found), []string{"msg-12"}), "a poll from row 11")
	assert.Check(t, cmp.Equal(w.from, int64(12)), "where the next poll starts, after one from row 11 found msg-12 alone")

	w.from = 3
	found, err = w.poll(t.Context())
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(found[0].id, "msg-5"), "the first message a poll from row 3 finds")
	assert.Check(t, cmp.Equal(w.from, int64(5)), "where the next poll starts, after one from row 3 found msg-5 first")
}

// TestAPollPastTheLastMessageStartsAgainFromTheFirst: a worker whose
// poll finds nothing from where it stands looks again from the first row
// at once, so a message that became claimable behind it is not left.
func TestAPollPastTheLastMessageStartsAgainFromTheFirst(t *testing.T) {
	t.Parallel()
	w := &tortureWorker{db: pollLedger(t), clk: clock.Wall{}, from: 13}

	found, err := w.poll(t.Context())

	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(ids(found)[:2], []string{"msg-1", "msg-2"}), "a poll past the last row")
	assert.Check(t, cmp.Equal(w.from, int64(1)), "where the next poll starts")
}

// TestAPollFromTheSecondRowStillFindsTheFirst: a worker standing on the
// second row, with nothing claimable from there on, finds the first row's
// message at once.
func TestAPollFromTheSecondRowStillFindsTheFirst(t *testing.T) {
	t.Parallel()
	db, box := newLedger(t, filepath.Join(t.TempDir(), ledgerFile), clock.Wall{}, 60_000, "msg-1", "msg-2")
	_, err := box.Claim(t.Context(), "msg-2", "worker-b")
	assert.NilError(t, err)
	w := &tortureWorker{db: db, clk: clock.Wall{}, from: 2}

	found, err := w.poll(t.Context())

	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(ids(found), []string{"msg-1"}), "a poll from row 2, msg-2 held")
	assert.Check(t, cmp.Equal(w.from, int64(1)), "where the next poll starts")
}

// TestEveryFewPollsAWorkerStartsAgainFromTheFirstRow: every 16th poll of
// a worker, and only that one, starts from the first row though there is
// more to claim where the worker stands.
func TestEveryFewPollsAWorkerStartsAgainFromTheFirstRow(t *testing.T) {
	t.Parallel()
	w := &tortureWorker{db: pollLedger(t), clk: clock.Wall{}, from: 11}
	var firsts []string
	const every = 16
	for range 2 * every {
		w.from = 11
		found, err := w.poll(t.Context())
		assert.NilError(t, err)
		firsts = append(firsts, found[0].id)
	}
	for i, first := range firsts {
		want := "msg-12"
		if (i+1)%every == 0 {
			want = "msg-1"
		}
		assert.Check(t, cmp.Equal(first, want), "the first message of poll %d, from row 11", i+1)
	}
}

// TestAPollThatCannotReadFails: a poll of a file without the mailbox's
// table is an error, not an empty poll (which would look like a run with
// nothing left to do).
func TestAPollThatCannotReadFails(t *testing.T) {
	t.Parallel()
	db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), "ledger.db"))
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	w := &tortureWorker{db: db, clk: clock.Wall{}, from: 5}

	found, err := w.poll(t.Context())

	assert.ErrorContains(t, err, "no such table")
	assert.Check(t, cmp.Len(found, 0))
}

// TestAPollFindsALeaseOnTheTickItEnds: a claimed message is polled from
// the tick its lease ends, and not one tick before, as the claim itself
// judges it.
func TestAPollFindsALeaseOnTheTickItEnds(t *testing.T) {
	t.Parallel()
	at := &clock.Logical{}
	w := &tortureWorker{db: pollLedger(t), clk: at, from: 1}
	for now, want := range map[int64][]string{1009: {"msg-1", "msg-5"}, 1010: {"msg-1", "msg-2"}} {
		at.Set(now)
		found, err := w.poll(t.Context())
		assert.NilError(t, err)
		assert.Check(t, cmp.DeepEqual(ids(found)[:2], want), "a poll at %d of msg-2's lease, which ends at 1010", now)
	}
}

// TestAnIdleWorkerWaitsAQuarterOfALease: a worker that found nothing to
// claim looks again after a quarter of a lease, never sooner than 1 ms
// nor later than 20 ms.
func TestAnIdleWorkerWaitsAQuarterOfALease(t *testing.T) {
	t.Parallel()
	for leaseMs, want := range map[int64]time.Duration{1: 1, 3: 1, 4: 1, 7: 1, 8: 2, 40: 10, 80: 20, 83: 20, 84: 20, 60_000: 20} {
		w := &tortureWorker{leaseMs: leaseMs}
		assert.Check(t, cmp.Equal(w.idleTime(), want*time.Millisecond), "the idle wait under a lease of %d ms", leaseMs)
	}
}

// TestTheRunStallsOnlyAfterTenSecondsAndTwentyFourLeases: the coordinator
// gives up on a run that does not move after ten seconds and 24 leases,
// far more than the plan's longest pause, four leases.
func TestTheRunStallsOnlyAfterTenSecondsAndTwentyFourLeases(t *testing.T) {
	t.Parallel()
	for leaseMs, want := range map[int64]time.Duration{1: 10_024 * time.Millisecond, 40: 10_960 * time.Millisecond, 1000: 34 * time.Second} {
		assert.Check(t, cmp.Equal(stallLimit(leaseMs), want), "the stall limit under a lease of %d ms", leaseMs)
	}
}
