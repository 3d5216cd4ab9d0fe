package audit_test

// Every count the audit reports, made non-zero on purpose, each to a
// value of its own, and read back by its JSON name: a count that is
// dropped, renamed, or swapped with another (a field's tag, or the
// violation a case adds to) fails here, though every clean run reports
// zeros for all of them.

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// brokenLedger is a run in which every promise is broken, each kind a
// different number of times, and no message breaks more than one:
//
//	double_completions        1  d-1 completed by two workers
//	stale_completes_accepted  2  s-1, s-2 DONE under another generation
//	tokens_not_increasing     3  worker-t wins token 100, worker-a's already
//	terminal_left             4  l-1, l-2 completed but DEAD; l-3, l-4 parked but DONE
//	retry_budget_broken       5  r-1..r-3 over the budget; r-4, r-5 DEAD before it
//	lost                      6  gone, leased forever, leased past the audit, ...
//	stuck                     7  CLAIMED, lease passed, and no claim takes it
//	unfinished                8  NEW and untried, failed, or taken after the run
//
// and integrity_check is not "ok".
func brokenLedger() (audit.Ledger, []audit.Log) {
	const checkedAt = 10_000
	l := audit.Ledger{
		Rows:      map[string]mailbox.Message{},
		Integrity: "*** in database main *** Page 7: btreeInitPage() returns error code 11",
		CheckedAt: checkedAt,
		AfterRun:  map[string]audit.ClaimTry{},
	}
	row := func(m mailbox.Message) {
		l.Messages = append(l.Messages, m.ID)
		l.Rows[m.ID] = m
	}
	done := func(id, owner string, token int64) mailbox.Message {
		return mailbox.Message{ID: id, State: mailbox.Done, Owner: owner, Token: token}
	}
	var a, b, tk []audit.Record // worker-a's, worker-b's and worker-t's records
	complete := func(id string, token int64) audit.Record {
		return audit.Record{Op: "complete", ID: id, Token: token, Result: audit.Completed}
	}

	// double_completions: 1.
	row(done("d-1", "worker-a", 1))
	a = append(a, complete("d-1", 1))
	b = append(b, complete("d-1", 2))
	// stale_completes_accepted: 2.
	for _, id := range []string{"s-1", "s-2"} {
		row(done(id, "worker-b", 9))
		a = append(a, complete(id, 5))
	}
	// tokens_not_increasing: 3.
	for _, id := range []string{"t-1", "t-2", "t-3"} {
		row(done(id, "worker-a", 100))
	}
	a = append(a, audit.Record{Op: "claim", ID: "t-1", Token: 100, Result: audit.Claimed})
	for _, id := range []string{"t-1", "t-2", "t-3"} {
		tk = append(tk, audit.Record{Op: "claim", ID: id, Token: 100, Result: audit.Claimed})
	}
	// terminal_left: 4.
	for _, id := range []string{"l-1", "l-2"} {
		row(mailbox.Message{ID: id, State: mailbox.Dead, RetryCount: mailbox.MaxRetries})
		a = append(a, complete(id, 3))
	}
	for _, id := range []string{"l-3", "l-4"} {
		row(done(id, "worker-b", 4))
		b = append(b, audit.Record{Op: "dead-letter", ID: id, Token: 4, Result: audit.DeadLettered})
	}
	// retry_budget_broken: 5.
	for i := 1; i <= 3; i++ {
		m := done(fmt.Sprintf("r-%d", i), "worker-a", 6)
		m.RetryCount = mailbox.MaxRetries + 1
		row(m)
	}
	for i := 4; i <= 5; i++ {
		row(mailbox.Message{ID: fmt.Sprintf("r-%d", i), State: mailbox.Dead, RetryCount: mailbox.MaxRetries - 1})
	}
	// lost: 6.
	l.Messages = append(l.Messages, "g-1", "g-2") // gone from the table
	row(mailbox.Message{ID: "g-3", State: mailbox.Claimed, Owner: "worker-a", Token: 7})
	row(mailbox.Message{ID: "g-4", State: mailbox.Claimed, Owner: "worker-a", Token: 8, Expires: true, ExpiresAt: checkedAt + 1})
	l.AfterRun["g-4"] = audit.ClaimTry{Reason: mailbox.LeaseHeld}
	row(mailbox.Message{ID: "g-5", State: "LIMBO"})
	row(mailbox.Message{ID: "g-6", State: mailbox.New})
	l.AfterRun["g-6"] = audit.ClaimTry{Reason: mailbox.NotClaimable}
	// stuck: 7.
	for i := 1; i <= 7; i++ {
		id := fmt.Sprintf("k-%d", i)
		row(mailbox.Message{ID: id, State: mailbox.Claimed, Owner: "worker-b", Token: int64(200 + i), Expires: true, ExpiresAt: checkedAt - 1})
		l.AfterRun[id] = audit.ClaimTry{Reason: mailbox.LeaseHeld}
	}
	// unfinished: 8.
	for i := 1; i <= 8; i++ {
		id := fmt.Sprintf("u-%d", i)
		row(mailbox.Message{ID: id, State: mailbox.New})
		switch {
		case i <= 3: // never tried
		case i <= 5:
			l.AfterRun[id] = audit.ClaimTry{Error: "database is locked"}
		default:
			l.AfterRun[id] = audit.ClaimTry{Claimed: true}
		}
	}
	logs := []audit.Log{
		{Owner: "worker-a", Pid: 101, Records: a},
		{Owner: "worker-b", Pid: 102, Records: b},
		{Owner: "worker-t", Pid: 103, Records: tk},
	}
	return l, logs
}

// TestEveryAuditCountIsReportedUnderItsName: a run that breaks every
// promise a different number of times reports each count, by its JSON
// name, as that number, and the file's damage as integrity_check; the
// JSON has no count this test does not know.
func TestEveryAuditCountIsReportedUnderItsName(t *testing.T) {
	t.Parallel()
	l, logs := brokenLedger()

	f := audit.Audit(l, logs)

	assertCounts(t, f, map[string]float64{
		"double_completions":       1,
		"stale_completes_accepted": 2,
		"tokens_not_increasing":    3,
		"terminal_left":            4,
		"retry_budget_broken":      5,
		"lost":                     6,
		"stuck":                    7,
		"unfinished":               8,
	})
	got := asJSON(t, f)
	assert.Equal(t, got["integrity_check"], l.Integrity, "audit JSON integrity_check of a damaged file")
	assert.Equal(t, got["first_violation"], "integrity_check: PRAGMA integrity_check answered \""+l.Integrity+"\"",
		"audit JSON first_violation: want the file's own damage first")
	_, mailboxHasStore := got["stale_writes_accepted"]
	assert.Check(t, !mailboxHasStore, "a mailbox run's audit reports stale_writes_accepted; it has no store")
}

// TestEveryStoreAuditCountIsReportedUnderItsName: the audit of torture
// --lock etcd, on a store whose log breaks every promise a different
// number of times, reports each count by its JSON name as that number.
func TestEveryStoreAuditCountIsReportedUnderItsName(t *testing.T) {
	t.Parallel()
	entry := func(key, op string, token int64, writer string) fencedstore.Entry {
		return fencedstore.Entry{Key: key, Op: op, Token: token, Writer: writer}
	}
	d := audit.Destination{
		// k-lost-1..4 are gone from the store; k-open-1..5 were never
		// completed.
		Keys: []string{"k-write", "k-complete", "k-double",
			"k-lost-1", "k-lost-2", "k-lost-3", "k-lost-4",
			"k-open-1", "k-open-2", "k-open-3", "k-open-4", "k-open-5"},
		Resources: map[string]fencedstore.Resource{
			"k-write":    {Key: "k-write", Mark: 50, Writes: 3, DoneToken: 50},
			"k-complete": {Key: "k-complete", Mark: 50, Writes: 1, DoneToken: 40},
			"k-double":   {Key: "k-double", Mark: 60, Writes: 1, DoneToken: 60},
		},
		Log: []fencedstore.Entry{
			// stale_writes_accepted: 2.
			entry("k-write", "write", 50, "worker-a"),
			entry("k-write", "write", 40, "worker-b"),
			entry("k-write", "write", 30, "worker-c"),
			entry("k-write", "complete", 50, "worker-a"),
			// stale_completes_accepted: 1.
			entry("k-complete", "write", 50, "worker-a"),
			entry("k-complete", "complete", 40, "worker-b"),
			// double_completions: 3.
			entry("k-double", "complete", 60, "worker-a"),
			entry("k-double", "complete", 60, "worker-a"),
			entry("k-double", "complete", 60, "worker-b"),
			entry("k-double", "complete", 60, "worker-c"),
		},
		Integrity: "ok",
	}
	for i := 1; i <= 5; i++ {
		k := fmt.Sprintf("k-open-%d", i)
		d.Resources[k] = fencedstore.Resource{Key: k, Mark: 70, Writes: 1}
	}
	// tokens_not_increasing: 6 grants of a token worker-a had won.
	claim := func(id string) audit.Record {
		return audit.Record{Op: "claim", ID: id, Token: 7, Result: audit.Claimed}
	}
	logs := []audit.Log{{Owner: "worker-a", Pid: 201, Records: []audit.Record{claim("k-write")}}, {Owner: "worker-b", Pid: 202}}
	for range 6 {
		logs[1].Records = append(logs[1].Records, claim("k-complete"))
	}

	f := audit.AuditStore(d, logs)

	assertCounts(t, f, map[string]float64{
		"double_completions":       3,
		"stale_writes_accepted":    2,
		"stale_completes_accepted": 1,
		"lost":                     4,
		"unfinished":               5,
		"tokens_not_increasing":    6,
		"stuck":                    0, // a store has no leases to be stuck behind
		"terminal_left":            0, // nor a state to leave
		"retry_budget_broken":      0, // nor retries
	})
}

// assertCounts checks that f's JSON holds every count in want under its
// name, with its value, and no count want does not name.
func assertCounts(t *testing.T, f audit.Findings, want map[string]float64) {
	t.Helper()
	got := asJSON(t, f)
	var names []string
	for name, v := range got {
		if _, isCount := v.(float64); isCount {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		_, known := want[name]
		assert.Check(t, known, "audit JSON has a count %q this test does not make non-zero; give it a value of its own", name)
	}
	for name, n := range want {
		assert.Check(t, got[name] == n, "audit JSON %s = %v; want %v", name, got[name], n)
	}
}

// asJSON is f as its JSON reports it, decoded into a map by name.
func asJSON(t *testing.T, f audit.Findings) map[string]any {
	t.Helper()
	data, err := json.Marshal(f)
	assert.NilError(t, err)
	var got map[string]any
	assert.NilError(t, json.Unmarshal(data, &got))
	return got
}
