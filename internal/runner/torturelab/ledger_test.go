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
	db, err := sqlitedb.Open(t.Context(), filepath.Join(t.TempDir(), "ledger.db"))
	assert.NilError(t, err)
	t.Cleanup(func() { db.Close() })
	assert.NilError(t, mailbox.CreateSchema(t.Context(), db))
	box := mailbox.Open(db, clock.Wall{}, leaseMs)
	for _, id := range []string{"msg-1", "msg-2"} {
		assert.NilError(t, box.Add(t.Context(), id, "work"))
	}
	held, err := box.Claim(t.Context(), "msg-1", "worker-a")
	assert.NilError(t, err)
	return db, held
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

	l, err := readLedger(t.Context(), db, []string{"msg-1"}, runLeaseMs)

	assert.NilError(t, err)
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
