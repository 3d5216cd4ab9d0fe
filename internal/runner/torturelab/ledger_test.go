package torturelab

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// heldLedger returns a ledger with msg-1 claimed by worker-a for leaseMs
// on the wall clock, and msg-2 NEW.
func heldLedger(t *testing.T, leaseMs int64) (*sqlitedb.DB, mailbox.Claim) {
	t.Helper()
	db, box := newLedger(t, filepath.Join(t.TempDir(), ledgerFile), clock.Wall{}, leaseMs, "msg-1", "msg-2")
	held, err := box.Claim(t.Context(), "msg-1", "worker-a")
	assert.NilError(t, err)
	return db, held
}

// newLedger makes a ledger at path with the mailbox's table and the
// messages ids in it, on a mailbox of clk with leases of leaseMs; the
// test closes it when it ends.
func newLedger(t *testing.T, path string, clk clock.Clock, leaseMs int64, ids ...string) (*sqlitedb.DB, *mailbox.Mailbox) {
	t.Helper()
	db, err := sqlitedb.Open(t.Context(), path)
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	assert.NilError(t, mailbox.CreateSchema(t.Context(), db))
	box := mailbox.Open(db, clk, leaseMs)
	for _, id := range ids {
		assert.NilError(t, box.Add(t.Context(), id, "work"))
	}
	return db, box
}

// TestTheAuditClaimsOnlyOnceTheRunsLeasesHaveEnded: a message still
// CLAIMED when the workers stop is tried by a claim only after its lease
// has ended, so that a lease the run granted cannot make a message look
// stuck; a NEW message is tried too, and both are taken.
func TestTheAuditClaimsOnlyOnceTheRunsLeasesHaveEnded(t *testing.T) {
	t.Parallel()
	const leaseMs = 200
	db, held := heldLedger(t, leaseMs)

	l, err := readLedger(t.Context(), db, []string{"msg-1", "msg-2"}, leaseMs)

	assert.NilError(t, err)
	assert.Check(t, l.CheckedAt >= held.ExpiresAt, "the audit tried its claims at %d, before the run's lease ended at %d", l.CheckedAt, held.ExpiresAt)
	assert.Check(t, cmp.DeepEqual(l.AfterRun, map[string]audit.ClaimTry{"msg-1": {Claimed: true}, "msg-2": {Claimed: true}}),
		"claims tried after the run's lease ended")
	assert.Check(t, cmp.Equal(l.Integrity, "ok"))
}

// TestTheAuditWaitsNoLongerThanOneLease: a lease ending later than any the
// run could grant is not waited for: after one lease the audit tries its
// claim, and reports the refusal.
func TestTheAuditWaitsNoLongerThanOneLease(t *testing.T) {
	t.Parallel()
	const runLeaseMs = 50
	db, _ := heldLedger(t, 60_000) // a lease a minute long: longer than the run's
	start := clock.Wall{}.Now()
	// An audit that waited for the minute-long lease would end here.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()

	l, err := readLedger(ctx, db, []string{"msg-1"}, runLeaseMs)

	assert.NilError(t, err, "the audit waited for a lease longer than the run's")
	assert.Check(t, l.CheckedAt-start >= runLeaseMs, "the audit waited %d ms; want at least one lease, %d ms", l.CheckedAt-start, runLeaseMs)
	assert.Check(t, l.CheckedAt-start < 30_000, "the audit waited %d ms for a lease longer than the run's", l.CheckedAt-start)
	assert.Check(t, cmp.Equal(l.AfterRun["msg-1"].Reason, mailbox.LeaseHeld), "the claim after the run: %+v", l.AfterRun["msg-1"])
}

// TestAnInterruptedAuditStops: an interrupt while the audit waits for a
// lease to end stops it with the interrupt's error.
func TestAnInterruptedAuditStops(t *testing.T) {
	t.Parallel()
	db, _ := heldLedger(t, 60_000)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)

	_, err := readLedger(ctx, db, []string{"msg-1"}, 60_000)

	assert.ErrorIs(t, err, context.Canceled)
}

// endedLedger returns a ledger whose run added msg-1 to msg-4 under
// leases of leaseMs: msg-1 ends DONE, msg-2 DEAD, msg-3 is held by
// worker-b for heldMs, msg-4 is NEW.
func endedLedger(t *testing.T, leaseMs, heldMs int64) (*sqlitedb.DB, mailbox.Claim) {
	t.Helper()
	ctx := t.Context()
	db, box := newLedger(t, filepath.Join(t.TempDir(), ledgerFile), clock.Wall{}, leaseMs, "msg-1", "msg-2", "msg-3", "msg-4")
	done, err := box.Claim(ctx, "msg-1", "worker-a")
	assert.NilError(t, err)
	assert.NilError(t, box.Complete(ctx, "msg-1", "worker-a", done.Token))
	for verdict := mailbox.Retried; verdict != mailbox.DeadLettered; {
		failed, err := box.Claim(ctx, "msg-2", "worker-a")
		assert.NilError(t, err)
		verdict, err = box.DeadLetter(ctx, "msg-2", failed.Token)
		assert.NilError(t, err)
	}
	held, err := mailbox.Open(db, clock.Wall{}, heldMs).Claim(ctx, "msg-3", "worker-b")
	assert.NilError(t, err)
	return db, held
}

// TestOnlyMessagesLeftOpenAreTriedAfterTheRun: the audit's claims after
// the run go to the messages neither DONE nor DEAD, and to no other.
func TestOnlyMessagesLeftOpenAreTriedAfterTheRun(t *testing.T) {
	t.Parallel()
	const leaseMs = 50
	db, _ := endedLedger(t, leaseMs, leaseMs)

	l, err := readLedger(t.Context(), db, []string{"msg-1", "msg-2", "msg-3", "msg-4"}, leaseMs)

	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(l.AfterRun, map[string]audit.ClaimTry{"msg-3": {Claimed: true}, "msg-4": {Claimed: true}}),
		"claims tried after the run: only on the messages left open")
	assert.Check(t, cmp.Equal(l.Rows["msg-1"].State, mailbox.Done))
	assert.Check(t, cmp.Equal(l.Rows["msg-2"].State, mailbox.Dead))
	assert.Check(t, cmp.Equal(l.Rows["msg-2"].RetryCount, mailbox.MaxRetries), "msg-2's retries, read from its row")
	assert.Check(t, cmp.Equal(l.Rows["msg-3"].Owner, "worker-b"), "msg-3's owner, read from its row")
}

// TestTheAuditWaitsForTheLastLeaseToEnd: with several leases still
// running when the workers stop, the audit's claims wait for the one
// that ends last, not the last one read.
func TestTheAuditWaitsForTheLastLeaseToEnd(t *testing.T) {
	t.Parallel()
	const leaseMs = 300
	db, first := heldLedger(t, leaseMs) // msg-1, held for 300 ms
	second, err := mailbox.Open(db, clock.Wall{}, 20).Claim(t.Context(), "msg-2", "worker-b")
	assert.NilError(t, err)

	l, err := readLedger(t.Context(), db, []string{"msg-1", "msg-2"}, leaseMs)

	assert.NilError(t, err)
	assert.Check(t, l.CheckedAt >= first.ExpiresAt, "the audit tried its claims at %d, before msg-1's lease ended at %d (msg-2's ended at %d)",
		l.CheckedAt, first.ExpiresAt, second.ExpiresAt)
	assert.Check(t, cmp.DeepEqual(l.AfterRun, map[string]audit.ClaimTry{"msg-1": {Claimed: true}, "msg-2": {Claimed: true}}))
}

// TestTheAuditDoesNotWaitForLeasesThatHaveEnded: when no lease of the run
// is still running, the audit tries its claims at once, not one lease
// later.
func TestTheAuditDoesNotWaitForLeasesThatHaveEnded(t *testing.T) {
	t.Parallel()
	const leaseMs = 60_000
	db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), "ledger.db"))
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	assert.NilError(t, mailbox.CreateSchema(t.Context(), db))
	assert.NilError(t, mailbox.Open(db, clock.Wall{}, leaseMs).Add(t.Context(), "msg-1", "work"))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()

	l, err := readLedger(ctx, db, []string{"msg-1"}, leaseMs)

	assert.NilError(t, err, "the audit waited for a lease nobody holds")
	assert.Check(t, cmp.DeepEqual(l.AfterRun, map[string]audit.ClaimTry{"msg-1": {Claimed: true}}))
}

// TestALedgerWithNothingOpenIsNotClaimed: when every message ended DONE
// or DEAD, the audit tries no claim, and says so: its check time stays
// zero.
func TestALedgerWithNothingOpenIsNotClaimed(t *testing.T) {
	t.Parallel()
	db, _ := endedLedger(t, 50, 50)

	l, err := readLedger(t.Context(), db, []string{"msg-1", "msg-2"}, 50)

	assert.NilError(t, err)
	assert.Check(t, cmp.Len(l.AfterRun, 0), "claims tried after a run that left nothing open")
	assert.Check(t, cmp.Equal(l.CheckedAt, int64(0)), "the time of claims nobody tried")
	assert.Check(t, cmp.Equal(l.Integrity, "ok"))
}

// TestALedgerThatCannotBeReadFailsTheAudit: a file without the mailbox's
// table cannot be audited: the error says the ledger could not be read.
func TestALedgerThatCannotBeReadFailsTheAudit(t *testing.T) {
	t.Parallel()
	db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), "ledger.db"))
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })

	_, err = readLedger(t.Context(), db, []string{"msg-1"}, 50)

	assert.ErrorContains(t, err, "read the ledger")
}
