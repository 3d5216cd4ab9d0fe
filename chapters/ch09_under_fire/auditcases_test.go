package underfire

// This file tests the audit's rarer cases, on the made-up run of
// audit_test.go: a message parked in DEAD that leaves it, more than two
// completes of one message, a message in a state no claim takes, one
// nobody tried after the run, one whose claim after the run failed, and
// the one line the audit tells a person.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// TestAuditFindsADeadMessageThatLeftDEAD: msg-3 was parked in DEAD, and
// ends the run NEW again: DEAD is terminal too.
func TestAuditFindsADeadMessageThatLeftDEAD(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Rows["msg-3"] = mailbox.Message{ID: "msg-3", State: mailbox.New, RetryCount: mailbox.MaxRetries}
	l.AfterRun["msg-3"] = audit.ClaimTry{Claimed: true}

	f := audit.Audit(l, logs)

	assert.Check(t, cmp.Equal(f.TerminalLeft, 1), "terminal_left: a DEAD message that ends NEW")
	assert.Check(t, cmp.Equal(f.Violations[0].Kind, audit.TerminalLeft), "the first violation told: %s", f.FirstViolation)
	for _, m := range []string{"msg-3", "worker-a (pid 101) dead-lettered it with token 70", "ends with it NEW", "DEAD is terminal"} {
		assert.Check(t, cmp.Contains(f.FirstViolation, m))
	}
}

// TestAuditCountsEveryCompleteOfOneMessage: two, three or four completes
// accepted for msg-2 are one double completion, told with the first two
// and how many more there were.
func TestAuditCountsEveryCompleteOfOneMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		extra   int
		mention string
	}{{1, "and by worker-b (pid 102) with token 30\n"}, {2, "with token 20, and 1 more\n"}, {3, "with token 20, and 2 more\n"}} {
		l, logs := cleanRun()
		for range tc.extra {
			logs[0].Records = append(logs[0].Records, audit.Record{Op: "complete", ID: "msg-2", Token: 20, Result: audit.Completed})
		}

		f := audit.Audit(l, logs)

		assertFound(t, f, audit.DoubleCompletion, 1, "msg-2 was completed twice")
		assert.Check(t, cmp.Contains(f.FirstViolation+"\n", tc.mention), "%d completes of msg-2: the first violation %q", tc.extra+1, f.FirstViolation)
	}
}

// TestAuditFindsAMessageInAStateNoClaimTakes: a row neither DONE, DEAD,
// NEW nor CLAIMED can never be taken again: the message is lost.
func TestAuditFindsAMessageInAStateNoClaimTakes(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Rows["msg-4"] = mailbox.Message{ID: "msg-4", State: "ARCHIVED", Owner: "worker-b", Token: 80}
	l.AfterRun["msg-4"] = audit.ClaimTry{Reason: mailbox.NotClaimable}
	logs[1].Records = logs[1].Records[:11] // worker-b was killed before it completed msg-4

	f := audit.Audit(l, logs)

	assertFound(t, f, audit.Lost, 1, `lost: msg-4 is in state "ARCHIVED", which no claim takes`)
}

// TestAuditTellsWhatNoClaimAfterTheRunSettled: a message left open that
// nobody tried after the run, or whose claim after the run failed without
// an answer, is unfinished, and the line says which.
func TestAuditTellsWhatNoClaimAfterTheRunSettled(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		try     *audit.ClaimTry
		mention string
	}{
		{"never-tried", nil, "unfinished: msg-4 is NEW and was never tried after the run"},
		{"claim-failed", &audit.ClaimTry{Error: "database is locked"}, "unfinished: msg-4 was NEW when the workers stopped, and a claim after the run failed: database is locked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, logs := cleanRun()
			l.Rows["msg-4"] = mailbox.Message{ID: "msg-4", State: mailbox.New}
			if tc.try != nil {
				l.AfterRun["msg-4"] = *tc.try
			}
			logs[1].Records = logs[1].Records[:9]

			f := audit.Audit(l, logs)

			assertFound(t, f, audit.Unfinished, 1, tc.mention)
		})
	}
}

// TestAuditSummaryCountsTheViolations: the one line the runner prints on
// stderr says how many violations the audit found, in words that agree
// in number, and tells the first.
func TestAuditSummaryCountsTheViolations(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	assert.Equal(t, audit.Audit(l, logs).Summary(), "the audit is clean")

	logs[0].Records = append(logs[0].Records, audit.Record{Op: "complete", ID: "msg-2", Token: 20, Result: audit.Completed})
	assert.Equal(t, audit.Audit(l, logs).Summary(), "the audit found 1 violation; the first: "+audit.Audit(l, logs).FirstViolation)

	l.Integrity = "*** in database main ***"
	assert.Equal(t, audit.Audit(l, logs).Summary(), "the audit found 2 violations; the first: "+audit.Audit(l, logs).FirstViolation)
}

// TestAuditCountsAResultOnlyForItsOwnCall: a result word means what it
// says only for the call that can answer it: "completed" for a complete,
// "dead_lettered" for a dead-letter, "claimed" for a claim. The same word
// on another call (a record no worker writes, but one the audit must not
// read as an acceptance) is no completion, no parking and no new token,
// so each of them, added to the clean run, leaves it clean.
func TestAuditCountsAResultOnlyForItsOwnCall(t *testing.T) {
	t.Parallel()
	for _, rec := range []audit.Record{
		{Op: "claim", ID: "msg-2", Token: 20, Result: audit.Completed},
		{Op: "claim", ID: "msg-1", Token: 10, Result: audit.DeadLettered},
		{Op: "complete", ID: "msg-4", Token: 10, Result: audit.Claimed},
	} {
		l, logs := cleanRun()
		logs[0].Records = append(logs[0].Records, rec)

		f := audit.Audit(l, logs)

		assert.Check(t, f.Clean(), "a %s record that says %q was read as one: %s", rec.Op, rec.Result, f.FirstViolation)
	}
}

// TestAuditCallsALeaseLostOnlyIfItOutlivesTheAudit: a CLAIMED row whose
// lease ends after the audit's own time, and that a claim after the run
// could not take, holds a lease longer than any the run grants: lost. On
// the exact tick the lease has ended, so the message is only unfinished.
// A row that was never tried after the run, or that is NEW with an old
// lease end still in it, is unfinished too, whatever its lease end says.
func TestAuditCallsALeaseLostOnlyIfItOutlivesTheAudit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		state     mailbox.State
		expiresAt int64
		tried     bool
		kind      audit.Kind
	}{
		{"claimed-past-the-audit", mailbox.Claimed, auditedAt + 1, true, audit.Lost},
		{"claimed-to-the-audit-tick", mailbox.Claimed, auditedAt, true, audit.Unfinished},
		{"claimed-past-the-audit-never-tried", mailbox.Claimed, auditedAt + 1, false, audit.Unfinished},
		{"new-with-an-old-lease-end", mailbox.New, auditedAt + 1, true, audit.Unfinished},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, logs := cleanRun()
			l.Messages = append(l.Messages, "msg-5")
			row := mailbox.Message{ID: "msg-5", State: tc.state, ExpiresAt: tc.expiresAt}
			if tc.state == mailbox.Claimed {
				row.Owner, row.Token, row.Expires = "worker-b", 90, true
			}
			l.Rows["msg-5"] = row
			if tc.tried {
				l.AfterRun["msg-5"] = audit.ClaimTry{Claimed: true}
			}

			f := audit.Audit(l, logs)

			assertFound(t, f, tc.kind, 1, "msg-5")
		})
	}
}

// TestAuditTellsMessagesInTheOrderTheRunAddedThem: violations are told
// message by message in the order the run added the messages, not in the
// order of their names: msg-2, added second, comes before msg-10, added
// last, although "msg-10" sorts first.
func TestAuditTellsMessagesInTheOrderTheRunAddedThem(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Messages = append(l.Messages, "msg-10")
	delete(l.Rows, "msg-2")

	f := audit.Audit(l, logs)

	assert.Assert(t, cmp.Equal(f.Lost, 2), "msg-2 and msg-10 are gone: %v", f.Violations)
	assert.Check(t, cmp.Equal(f.Violations[0].ID, "msg-2"), "told first: %s", f.FirstViolation)
	assert.Check(t, cmp.Equal(f.Violations[1].ID, "msg-10"))
}
