package audit_test

// The audit of torture --lock etcd, on a store and records made up by
// hand: the store's own log of what it accepted, in commit order, checked
// against itself; the workers' claims checked only for shared tokens.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// cleanStore is a run with nothing wrong in it: job-1 is written with
// token 30 and completed; job-2 is written with token 20, then with 40
// (a later holder), and completed with 40. worker-a was granted 30 and
// then 20: an etcd lock's tokens need not grow from one message to the
// next, since a key queued before a lost answer is granted later.
func cleanStore() (audit.Destination, []audit.Log) {
	d := audit.Destination{
		Keys: []string{"job-1", "job-2"},
		Resources: map[string]fencedstore.Resource{
			"job-1": {Key: "job-1", Mark: 30, Writes: 1, DoneToken: 30},
			"job-2": {Key: "job-2", Mark: 40, Writes: 2, DoneToken: 40},
		},
		Log: []fencedstore.Entry{
			{Seq: 1, Key: "job-1", Op: "write", Token: 30, Writer: "worker-a"},
			{Seq: 2, Key: "job-1", Op: "complete", Token: 30, Writer: "worker-a"},
			{Seq: 3, Key: "job-2", Op: "write", Token: 20, Writer: "worker-a"},
			{Seq: 4, Key: "job-2", Op: "write", Token: 40, Writer: "worker-b"},
			{Seq: 5, Key: "job-2", Op: "complete", Token: 40, Writer: "worker-b"},
		},
		Integrity: "ok",
	}
	claim := func(id string, tok int64) audit.Record {
		return audit.Record{Op: "claim", ID: id, Token: tok, Result: audit.Claimed}
	}
	logs := []audit.Log{
		{Owner: "worker-a", Pid: 201, Records: []audit.Record{claim("job-1", 30), claim("job-2", 20)}},
		{Owner: "worker-b", Pid: 202, Records: []audit.Record{claim("job-2", 40)}},
	}
	return d, logs
}

// TestStoreAuditOfACleanRunFindsNothing: a clean run, in which one
// process's tokens go down from one message to the next, gets zeros, and
// stale_writes_accepted is there, 0.
func TestStoreAuditOfACleanRunFindsNothing(t *testing.T) {
	t.Parallel()
	d, logs := cleanStore()

	f := audit.AuditStore(d, logs)

	assert.Check(t, f.Clean(), "a clean run's audit found: %s", f.FirstViolation)
	assert.Assert(t, f.StaleWritesAccepted != nil, "stale_writes_accepted is reported by the store's audit")
	assert.Check(t, cmp.Equal(*f.StaleWritesAccepted, 0))
}

// TestStoreAuditFindsWhatTheStoreShouldHaveRefused: each broken promise,
// alone in the clean run, is counted as its kind, and told first.
func TestStoreAuditFindsWhatTheStoreShouldHaveRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		break_  func(d *audit.Destination, logs []audit.Log)
		kind    audit.Kind
		count   func(f audit.Findings) int
		mention string
	}{
		{"stale-write", func(d *audit.Destination, _ []audit.Log) {
			d.Log = append(d.Log, fencedstore.Entry{Seq: 6, Key: "job-2", Op: "write", Token: 20, Writer: "worker-a"})
		}, audit.StaleWrite, func(f audit.Findings) int { return *f.StaleWritesAccepted },
			"job-2: the store accepted worker-a's write with token 20 after it had accepted worker-b's write with token 40"},
		{"stale-complete", func(d *audit.Destination, _ []audit.Log) {
			d.Log[4].Token = 39 // after worker-b's write with 40
		}, audit.StaleComplete, func(f audit.Findings) int { return f.StaleCompletesAccepted },
			"job-2: the store accepted worker-b's complete with token 39 after it had accepted worker-b's write with token 40"},
		{"completed-twice", func(d *audit.Destination, _ []audit.Log) {
			d.Log = append(d.Log, fencedstore.Entry{Seq: 6, Key: "job-1", Op: "complete", Token: 30, Writer: "worker-b"})
		}, audit.DoubleCompletion, func(f audit.Findings) int { return f.DoubleCompletions },
			"job-1 was completed twice: by worker-a with token 30, and by worker-b with token 30"},
		{"two-grants-one-token", func(_ *audit.Destination, logs []audit.Log) {
			logs[1].Records[0].Token = 30
		}, audit.TokenNotIncreasing, func(f audit.Findings) int { return f.TokensNotIncreasing },
			"began a new generation with token 30, which worker-a (pid 201) had already won (on job-1)"},
		{"lost", func(d *audit.Destination, _ []audit.Log) {
			delete(d.Resources, "job-2")
		}, audit.Lost, func(f audit.Findings) int { return f.Lost }, "job-2 is gone from the store"},
		{"unfinished", func(d *audit.Destination, _ []audit.Log) {
			r := d.Resources["job-1"]
			r.DoneToken = 0
			d.Resources["job-1"] = r
		}, audit.Unfinished, func(f audit.Findings) int { return f.Unfinished }, "job-1 was never completed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, logs := cleanStore()
			tc.break_(&d, logs)

			f := audit.AuditStore(d, logs)

			assert.Check(t, cmp.Equal(tc.count(f), 1), "%s counted", tc.kind)
			assert.Check(t, cmp.Len(f.Violations, 1), "only %s is wrong: %v", tc.kind, f.Violations)
			assert.Assert(t, !f.Clean(), "the audit found nothing; want %s", tc.kind)
			assert.Check(t, cmp.Equal(f.Violations[0].Kind, tc.kind))
			assert.Check(t, cmp.Contains(f.FirstViolation, tc.mention))
		})
	}
}

// TestStoreAuditTakesAnEqualTokenAgain: a second write with the token the
// key already accepted is the same holder writing again, not a stale one.
func TestStoreAuditTakesAnEqualTokenAgain(t *testing.T) {
	t.Parallel()
	d, logs := cleanStore()
	d.Log = append(d.Log[:4], fencedstore.Entry{Seq: 5, Key: "job-2", Op: "write", Token: 40, Writer: "worker-b"}, d.Log[4])

	f := audit.AuditStore(d, logs)

	assert.Check(t, f.Clean(), "a second write with the same token: %s", f.FirstViolation)
}

// TestStoreAuditSaysADamagedFileFirst: a store whose integrity check
// failed is a violation, told before any other.
func TestStoreAuditSaysADamagedFileFirst(t *testing.T) {
	t.Parallel()
	d, logs := cleanStore()
	d.Integrity = "*** in database main ***"
	delete(d.Resources, "job-1")

	f := audit.AuditStore(d, logs)

	assert.Check(t, cmp.Equal(f.IntegrityCheck, d.Integrity))
	assert.Assert(t, cmp.Len(f.Violations, 2))
	assert.Check(t, cmp.Equal(f.Violations[0].Kind, audit.Integrity), "told first: %s", f.FirstViolation)
}
