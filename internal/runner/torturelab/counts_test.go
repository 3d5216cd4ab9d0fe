package torturelab

import (
	"encoding/json"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// jsonAt decodes v's JSON and returns the value at path, a dotted list
// of keys ("audit.refused.stale_token").
func jsonAt(t testing.TB, v any, path string) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("set-up: %v", err)
	}
	var at any
	if err := json.Unmarshal(b, &at); err != nil {
		t.Fatalf("set-up: %v", err)
	}
	for _, key := range strings.Split(path, ".") {
		m, ok := at.(map[string]any)
		if !ok {
			t.Fatalf("%s: %s is not an object in %s", path, key, b)
		}
		if at, ok = m[key]; !ok {
			t.Fatalf("%s: no key %q in %s", path, key, b)
		}
	}
	return at
}

// TestEveryCountOfAnEtcdRunsAuditCanBeNonZero: each count of an etcd
// run's audit, and the store's refusals beside them, is read under its
// own name from a run that broke that promise on purpose, and
// integrity_check tells a damaged file.
func TestEveryCountOfAnEtcdRunsAuditCanBeNonZero(t *testing.T) {
	t.Parallel()
	done := func(token int64) fencedstore.Resource {
		return fencedstore.Resource{Mark: token, Writes: 1, DoneToken: token}
	}
	complete := func(writer string, token int64) fencedstore.Entry {
		return fencedstore.Entry{Key: "msg-1", Op: "complete", Token: token, Writer: writer}
	}
	wrote := audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: "accepted"}
	for _, tc := range []struct {
		key       string
		resources map[string]fencedstore.Resource
		log       []fencedstore.Entry
		logs      []audit.Log
		integrity string
	}{
		{key: "stale_writes_accepted", resources: map[string]fencedstore.Resource{"msg-1": done(5)},
			log:  []fencedstore.Entry{accepted("worker-a", 2), accepted("worker-b", 5), complete("worker-b", 5)},
			logs: []audit.Log{pausedHolder(began+1600, wrote), successor(began + 1200)}},
		{key: "refused.stale_token", resources: map[string]fencedstore.Resource{"msg-1": done(5)},
			log: []fencedstore.Entry{accepted("worker-b", 5), complete("worker-b", 5)},
			logs: []audit.Log{pausedHolder(began+1600, audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: audit.Refused, Reason: string(fencedstore.StaleToken)}),
				successor(began + 1200)}},
		{key: "stale_completes_accepted", resources: map[string]fencedstore.Resource{"msg-1": done(5)},
			log: []fencedstore.Entry{accepted("worker-b", 5), complete("worker-a", 2)}},
		{key: "double_completions", resources: map[string]fencedstore.Resource{"msg-1": done(5)},
			log: []fencedstore.Entry{accepted("worker-a", 2), complete("worker-a", 2), accepted("worker-b", 5), complete("worker-b", 5)}},
		{key: "tokens_not_increasing", resources: map[string]fencedstore.Resource{"msg-1": done(2)},
			log: []fencedstore.Entry{accepted("worker-a", 2), complete("worker-a", 2)},
			logs: []audit.Log{pausedHolder(began+1600, wrote),
				{Owner: "worker-b", Records: []audit.Record{{Op: "claim", ID: "msg-1", Token: 2, Result: audit.Claimed, At: began + 1200}}}}},
		{key: "lost", resources: map[string]fencedstore.Resource{}},
		{key: "unfinished", resources: map[string]fencedstore.Resource{"msg-1": {Mark: 2, Writes: 1}},
			log: []fencedstore.Entry{accepted("worker-a", 2)}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			d := audit.Destination{Keys: []string{"msg-1"}, Resources: tc.resources, Log: tc.log, Integrity: "ok"}
			a := auditEtcd(d, tc.logs)
			res := summarizeEtcd(newEtcdPlan(4, 2, 1, 0, 40, true), 1, tc.logs, d, a)

			got := jsonAt(t, res, "audit."+tc.key)

			assert.Check(t, got.(float64) > 0, "audit.%s = %v; want above 0", tc.key, got)
		})
	}
	t.Run("integrity_check", func(t *testing.T) {
		d := audit.Destination{Keys: []string{"msg-1"}, Resources: map[string]fencedstore.Resource{"msg-1": {Mark: 2, Writes: 1, DoneToken: 2}},
			Integrity: "*** in database main ***; Page 3 is never used"}
		res := summarizeEtcd(newEtcdPlan(4, 2, 1, 0, 40, true), 1, nil, d, auditEtcd(d, nil))

		got := jsonAt(t, res, "audit.integrity_check")

		assert.Check(t, got != "ok", "audit.integrity_check = %v; want SQLite's complaint", got)
		assert.Check(t, !res.Audit.Clean())
	})
}

// TestEveryCountOfAMailboxRunsAuditCanBeNonZero: each count of a mailbox
// run's audit is read under its own name from a ledger and records that
// broke that promise on purpose.
func TestEveryCountOfAMailboxRunsAuditCanBeNonZero(t *testing.T) {
	t.Parallel()
	const checkedAt = 5000
	completed := func(owner string, token int64) audit.Log {
		return audit.Log{Owner: owner, Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: token, Result: audit.Claimed},
			{Op: "complete", ID: "msg-1", Token: token, Result: audit.Completed}}}
	}
	for _, tc := range []struct {
		key   string
		row   *mailbox.Message // msg-1 at the end; nil: gone
		logs  []audit.Log
		tried *audit.ClaimTry // a claim of msg-1 after the run
	}{
		{key: "double_completions", row: &mailbox.Message{ID: "msg-1", State: mailbox.Done, Owner: "worker-b", Token: 2},
			logs: []audit.Log{completed("worker-a", 1), completed("worker-b", 2)}},
		{key: "stale_completes_accepted", row: &mailbox.Message{ID: "msg-1", State: mailbox.Done, Owner: "worker-b", Token: 2},
			logs: []audit.Log{completed("worker-a", 1)}},
		{key: "tokens_not_increasing", row: &mailbox.Message{ID: "msg-1", State: mailbox.Done, Owner: "worker-b", Token: 1},
			logs: []audit.Log{{Owner: "worker-a", Records: []audit.Record{{Op: "claim", ID: "msg-1", Token: 1, Result: audit.Claimed}}},
				completed("worker-b", 1)}},
		{key: "terminal_left", row: &mailbox.Message{ID: "msg-1", State: mailbox.New},
			logs: []audit.Log{completed("worker-a", 1)}, tried: &audit.ClaimTry{Claimed: true}},
		{key: "retry_budget_broken", row: &mailbox.Message{ID: "msg-1", State: mailbox.Dead, RetryCount: mailbox.MaxRetries + 1}},
		{key: "lost"},
		{key: "stuck", row: &mailbox.Message{ID: "msg-1", State: mailbox.Claimed, Owner: "worker-a", Token: 1, Expires: true, ExpiresAt: checkedAt - 1},
			tried: &audit.ClaimTry{Reason: mailbox.LeaseHeld}},
		{key: "unfinished", row: &mailbox.Message{ID: "msg-1", State: mailbox.New}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			l := audit.Ledger{Messages: []string{"msg-1"}, Rows: map[string]mailbox.Message{}, Integrity: "ok",
				CheckedAt: checkedAt, AfterRun: map[string]audit.ClaimTry{}}
			if tc.row != nil {
				l.Rows["msg-1"] = *tc.row
			}
			if tc.tried != nil {
				l.AfterRun["msg-1"] = *tc.tried
			}
			res := summarize(newPlan(9, 2, 1, 0, 40), 1, tc.logs, l, audit.Audit(l, tc.logs))

			got := jsonAt(t, res, "audit."+tc.key)

			assert.Check(t, got.(float64) > 0, "audit.%s = %v; want above 0", tc.key, got)
			assert.Check(t, res.Audit.FirstViolation != "", "a broken promise is told")
			assert.Check(t, !res.Audit.Clean())
		})
	}
}
