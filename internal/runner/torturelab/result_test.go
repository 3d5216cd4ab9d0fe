package torturelab

import (
	"reflect"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// TestTheRunsCountsComeFromTheRecordsAndTheLedger: what the workers were
// told is counted from their records, each answer once under its own
// key; what the run ended with is counted from the ledger's rows; and a
// DONE row without a record that says "completed" is counted as such.
func TestTheRunsCountsComeFromTheRecordsAndTheLedger(t *testing.T) {
	t.Parallel()
	plan := newPlan(9, 2, 9, 3, 40)
	logs := []audit.Log{
		{Owner: "worker-a", Slot: 0, Start: 1, Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 1, Result: audit.Claimed},
			{Op: "claim", ID: "msg-2", Token: 2, Result: audit.Claimed, Takeover: true},
			{Op: "claim", ID: "msg-1", Token: 1, Result: audit.Renewed},
			{Op: "complete", ID: "msg-1", Token: 1, Result: audit.Completed},
			{Op: "pause", ID: "msg-2", Token: 2, PauseMs: 70, PastLease: true},
			{Op: "pause", ID: "msg-2", Token: 2, PauseMs: 10},
			{Op: "pause", ID: "msg-3", Token: 3, PauseMs: 20},
			{Op: "claim", ID: "msg-3", Result: audit.Refused, Reason: string(mailbox.LeaseHeld), Holder: "worker-b"},
			{Op: "complete", ID: "msg-2", Token: 2, Result: audit.Refused, Reason: string(mailbox.StaleToken)},
			{Op: "dead-letter", ID: "msg-4", Token: 4, Result: audit.Refused, Reason: string(mailbox.Terminal)},
			{Op: "claim", ID: "msg-5", Result: audit.Refused, Reason: string(mailbox.NotClaimable)},
			{Op: "claim", ID: "msg-5", Result: audit.Refused, Reason: string(mailbox.LeaseHeld)},
			{Op: "claim", ID: "msg-6", Result: audit.Failed, Error: "database is locked"},
			{Op: "complete", ID: "msg-6", Token: 6, Result: audit.Failed, Error: "disk I/O error"},
			{Op: "poll", Result: audit.Failed, Error: "disk I/O error"},
			{Op: "dead-letter", ID: "msg-2", Token: 2, Result: audit.Retried},
			{Op: "dead-letter", ID: "msg-3", Token: 3, Result: audit.DeadLettered},
		}},
		{Owner: "worker-b", Slot: 1, Start: 1, Torn: 1, Records: []audit.Record{
			{Op: "complete", ID: "msg-7", Token: 7, Result: audit.Completed},
		}},
		{Owner: "worker-a2", Slot: 0, Start: 2, Torn: 1},
	}
	rows := map[string]mailbox.Message{
		"msg-1": {ID: "msg-1", State: mailbox.Done},
		"msg-7": {ID: "msg-7", State: mailbox.Done, RetryCount: 1},
		"msg-8": {ID: "msg-8", State: mailbox.Done, RetryCount: 2}, // its completer was killed before its record
		"msg-3": {ID: "msg-3", State: mailbox.Dead, RetryCount: mailbox.MaxRetries},
		"msg-2": {ID: "msg-2", State: mailbox.New, RetryCount: 1},
		"msg-9": {ID: "msg-9", State: mailbox.Claimed, Owner: "worker-b"},
	}
	findings := audit.Findings{Lost: 1}

	res := summarize(plan, 9, logs, audit.Ledger{Rows: rows}, findings)

	want := result{
		Command: "torture", Seed: 9, Processes: 2, Messages: 9, Kills: 3, LeaseMs: 40,
		Claims: 2, Takeovers: 1, Renewals: 1,
		Completes: 3, DeadLetters: 1, Retries: 1 + 2 + mailbox.MaxRetries + 1,
		Refused: refused{StaleToken: 1, Terminal: 1, LeaseHeld: 2, NotClaimable: 1},
		Pauses:  pauses{WithinLease: 2, PastLease: 1},
		Records: records{Processes: 3, Lines: 18, Torn: 2, Errors: 3, DoneUnrecorded: 1},
		Audit:   findings, Plan: plan,
	}
	assert.Assert(t, reflect.DeepEqual(*res, want), "the run's counts:\n got %+v\nwant %+v", *res, want)
}
