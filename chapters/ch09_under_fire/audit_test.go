package underfire

// This file tests the torture run's audit on its own, on ledgers and
// records made up by hand: a clean run reports nothing, each kind of
// violation is counted and told first, and a record a kill took can hide
// a violation but never make one up.

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// The made-up run's clock, in wall-clock milliseconds: every lease below
// ended long before the audit.
const (
	auditLease = 40
	auditedAt  = 10_000
)

// cleanRun is a small run with nothing wrong in it:
//
//   - msg-1: worker-a claims it (token 10) and completes it;
//   - msg-2: worker-a claims it (token 20) and pauses past its lease;
//     worker-b takes it over (token 30) and completes it; worker-a wakes
//     up and is refused stale_token;
//   - msg-3: fails every time: worker-b's attempts (tokens 40, 50, 60)
//     are retried, worker-a's (token 70) parks it in DEAD;
//   - msg-4: worker-b claims it (token 80), renews it (still 80), and
//     completes it.
//
// The tokens leave gaps (refused claims burn none, but other kinds of
// claim share the counter), so a test can slip one in between.
func cleanRun() (audit.Ledger, []audit.Log) {
	row := func(id string, state mailbox.State, owner string, tok int64, retries int) mailbox.Message {
		return mailbox.Message{ID: id, State: state, Owner: owner, Token: tok, Expires: owner != "", ExpiresAt: 10 * tok, RetryCount: retries}
	}
	l := audit.Ledger{
		Messages: []string{"msg-1", "msg-2", "msg-3", "msg-4"},
		Rows: map[string]mailbox.Message{
			"msg-1": row("msg-1", mailbox.Done, "worker-a", 10, 0),
			"msg-2": row("msg-2", mailbox.Done, "worker-b", 30, 0),
			"msg-3": row("msg-3", mailbox.Dead, "worker-a", 70, mailbox.MaxRetries),
			"msg-4": row("msg-4", mailbox.Done, "worker-b", 80, 0),
		},
		Integrity: "ok",
		CheckedAt: auditedAt,
		AfterRun:  map[string]audit.ClaimTry{},
	}
	claim := func(id string, tok int64) audit.Record {
		return audit.Record{Op: "claim", ID: id, Token: tok, Result: audit.Claimed, ExpiresAt: 10 * tok}
	}
	takeover := func(id string, tok int64) audit.Record {
		r := claim(id, tok)
		r.Takeover = true
		return r
	}
	complete := func(id string, tok int64) audit.Record {
		return audit.Record{Op: "complete", ID: id, Token: tok, Result: audit.Completed}
	}
	deadLetter := func(id string, tok int64, verdict string) audit.Record {
		return audit.Record{Op: "dead-letter", ID: id, Token: tok, Result: verdict}
	}
	a := audit.Log{Owner: "worker-a", Pid: 101, Slot: 0, Start: 1, Records: []audit.Record{
		claim("msg-1", 10),
		complete("msg-1", 10),
		claim("msg-2", 20),
		{Op: "pause", ID: "msg-2", Token: 20, PauseMs: 90, PastLease: true},
		{Op: "complete", ID: "msg-2", Token: 20, Result: audit.Refused, Reason: string(mailbox.StaleToken)},
		claim("msg-3", 70),
		deadLetter("msg-3", 70, audit.DeadLettered),
	}}
	b := audit.Log{Owner: "worker-b", Pid: 102, Slot: 1, Start: 1, Records: []audit.Record{
		{Op: "claim", ID: "msg-2", Result: audit.Refused, Reason: string(mailbox.LeaseHeld), Holder: "worker-a"},
		takeover("msg-2", 30),
		complete("msg-2", 30),
		claim("msg-3", 40),
		deadLetter("msg-3", 40, audit.Retried),
		claim("msg-3", 50),
		deadLetter("msg-3", 50, audit.Retried),
		claim("msg-3", 60),
		deadLetter("msg-3", 60, audit.Retried),
		claim("msg-4", 80),
		{Op: "claim", ID: "msg-4", Token: 80, Result: audit.Renewed, ExpiresAt: 820},
		complete("msg-4", 80),
	}}
	return l, []audit.Log{a, b}
}

// assertFound checks that the audit found exactly want violations of
// kind and none of any other, and that its first violation is of that
// kind and mentions every one of mentions (message id, owners, tokens).
func assertFound(t *testing.T, f audit.Findings, kind audit.Kind, want int, mentions ...string) {
	t.Helper()
	counts := map[audit.Kind]int{
		audit.DoubleCompletion:   f.DoubleCompletions,
		audit.StaleComplete:      f.StaleCompletesAccepted,
		audit.TokenNotIncreasing: f.TokensNotIncreasing,
		audit.TerminalLeft:       f.TerminalLeft,
		audit.RetryBudget:        f.RetryBudgetBroken,
		audit.Lost:               f.Lost,
		audit.Stuck:              f.Stuck,
		audit.Unfinished:         f.Unfinished,
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if k == kind {
			assert.Check(t, counts[k] == want, "audit counted %d %s; want %d", counts[k], k, want)
		} else {
			assert.Check(t, counts[k] == 0, "audit counted %d %s in a run with only %s wrong; want 0", counts[k], k, kind)
		}
	}
	assert.Assert(t, !f.Clean(), "the audit found nothing; want %s", kind)
	assert.Check(t, cmp.Equal(f.Violations[0].Kind, kind), "the first violation told: %s", f.FirstViolation)
	for _, m := range mentions {
		assert.Check(t, cmp.Contains(f.FirstViolation, m), "the first violation must name %q", m)
	}
}

// TestAuditOfACleanRunFindsNothing: a run whose ledger and records keep
// every promise (a takeover, a stale complete refused, retries and DEAD,
// a renewal) gets zeros, "ok", and no first violation.
func TestAuditOfACleanRunFindsNothing(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()

	f := audit.Audit(l, logs)

	assert.Check(t, f.Clean(), "a clean run's audit found: %s", f.FirstViolation)
	assert.DeepEqual(t, f, audit.Findings{IntegrityCheck: "ok"})
}

// TestAuditNeverInventsAViolationFromALostRecord: a kill -9 can take the
// last records of the process it kills. However many of them a kill
// takes, from whichever process, the audit of a clean run stays clean: a
// missing record may hide a violation, never make one up.
func TestAuditNeverInventsAViolationFromALostRecord(t *testing.T) {
	t.Parallel()
	_, logs := cleanRun()
	for p := range logs {
		for keep := range len(logs[p].Records) {
			l, logs := cleanRun()
			logs[p].Records = logs[p].Records[:keep]

			f := audit.Audit(l, logs)

			assert.Check(t, f.Clean(), "%s killed after %d of its records: the audit found %s; a lost record must not make up a violation",
				logs[p].Owner, keep, f.FirstViolation)
		}
	}
}

// TestAuditFindsADoubleCompletion: two completes accepted for one
// message, from two processes with two tokens.
func TestAuditFindsADoubleCompletion(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	logs[0].Records = append(logs[0].Records, audit.Record{Op: "complete", ID: "msg-2", Token: 20, Result: audit.Completed})

	f := audit.Audit(l, logs)

	assertFound(t, f, audit.DoubleCompletion, 1, "double completion", "msg-2",
		"worker-a (pid 101) with token 20", "worker-b (pid 102) with token 30")
}

// TestAuditFindsAStaleCompleteAccepted: worker-a's complete with token 20
// was accepted after worker-b had taken msg-2 over with token 30; the
// DONE row still names worker-b and token 30.
func TestAuditFindsAStaleCompleteAccepted(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	logs[0].Records[4].Result, logs[0].Records[4].Reason = audit.Completed, ""
	logs[1].Records[2].Result, logs[1].Records[2].Reason = audit.Refused, string(mailbox.Terminal)

	f := audit.Audit(l, logs)

	assertFound(t, f, audit.StaleComplete, 1, "stale complete accepted", "msg-2",
		"worker-a (pid 101) completed it with token 20", "worker-b under token 30")
}

// TestAuditFindsAStaleCompleteByEitherHalfOfTheGeneration: a generation is
// its owner and its token together. A complete accepted under the right
// owner but an older token (worker-a's own takeover of msg-1 with 15, then
// its complete with 10), or under the right token but another owner
// (worker-b's takeover of msg-2 kept token 20, then worker-a's complete
// with 20), was accepted for a generation that was not the current one.
func TestAuditFindsAStaleCompleteByEitherHalfOfTheGeneration(t *testing.T) {
	t.Parallel()
	t.Run("same-owner-older-token", func(t *testing.T) {
		t.Parallel()
		l, logs := cleanRun()
		own := audit.Record{Op: "claim", ID: "msg-1", Token: 15, Result: audit.Claimed, Takeover: true, ExpiresAt: 150}
		logs[0].Records = append(logs[0].Records[:1:1], append([]audit.Record{own}, logs[0].Records[1:]...)...)
		l.Rows["msg-1"] = mailbox.Message{ID: "msg-1", State: mailbox.Done, Owner: "worker-a", Token: 15, Expires: true, ExpiresAt: 150}

		f := audit.Audit(l, logs)

		assertFound(t, f, audit.StaleComplete, 1, "msg-1", "worker-a (pid 101) completed it with token 10", "worker-a under token 15")
	})
	t.Run("same-token-other-owner", func(t *testing.T) {
		t.Parallel()
		l, logs := cleanRun()
		logs[1].Records[1].Token = 20                                                                  // the takeover kept worker-a's token
		logs[1].Records[2].Result, logs[1].Records[2].Reason = audit.Refused, string(mailbox.Terminal) // worker-b's complete came too late
		logs[0].Records[4].Result, logs[0].Records[4].Reason = audit.Completed, ""                     // and worker-a's stale one was taken
		l.Rows["msg-2"] = mailbox.Message{ID: "msg-2", State: mailbox.Done, Owner: "worker-b", Token: 20, Expires: true, ExpiresAt: 200}

		f := audit.Audit(l, logs)

		assert.Check(t, cmp.Equal(f.StaleCompletesAccepted, 1), "stale_completes_accepted: %v", f.Violations)
		for _, v := range f.Violations {
			if v.Kind == audit.StaleComplete {
				assert.Check(t, cmp.Contains(v.Detail, "worker-a (pid 101) completed it with token 20, but its DONE row belongs to worker-b under token 20"))
			}
		}
	})
}

// TestAuditFindsTokensNotIncreasing: a claim that begins a new generation
// must get a token nobody was handed before, greater than every one its
// own process was handed.
func TestAuditFindsTokensNotIncreasing(t *testing.T) {
	t.Parallel()
	t.Run("takeover-keeps-the-token", func(t *testing.T) {
		t.Parallel()
		l, logs := cleanRun()
		// worker-b's takeover of msg-2 got worker-a's token 20 again.
		logs[1].Records[1].Token, logs[1].Records[2].Token = 20, 20
		l.Rows["msg-2"] = mailbox.Message{ID: "msg-2", State: mailbox.Done, Owner: "worker-b", Token: 20, Expires: true, ExpiresAt: 240}

		f := audit.Audit(l, logs)

		assertFound(t, f, audit.TokenNotIncreasing, 1, "tokens not increasing", "msg-2",
			"worker-b (pid 102) began a new generation with token 20", "worker-a (pid 101) had already won (on msg-2)")
	})
	t.Run("own-takeover-keeps-the-token", func(t *testing.T) {
		t.Parallel()
		l, logs := cleanRun()
		// worker-b claimed msg-4 again past its lease and got 80 again,
		// not a new token.
		logs[1].Records[10].Result = audit.Claimed

		f := audit.Audit(l, logs)

		assertFound(t, f, audit.TokenNotIncreasing, 1, "tokens not increasing", "msg-4",
			"worker-b (pid 102) began a new generation with token 80, which it had itself already won (on msg-4)")
	})
	t.Run("token-goes-down", func(t *testing.T) {
		t.Parallel()
		l, logs := cleanRun()
		// worker-a's claim of msg-3 got 15, after it had won 20.
		logs[0].Records[5].Token, logs[0].Records[6].Token = 15, 15
		l.Rows["msg-3"] = mailbox.Message{ID: "msg-3", State: mailbox.Dead, Owner: "worker-a", Token: 15, Expires: true, ExpiresAt: 150, RetryCount: mailbox.MaxRetries}

		f := audit.Audit(l, logs)

		assertFound(t, f, audit.TokenNotIncreasing, 1, "tokens not increasing", "msg-3",
			"worker-a (pid 101) began a new generation with token 15 after it had won token 20 (on msg-2)")
	})
	t.Run("a-reused-token-is-not-the-newest", func(t *testing.T) {
		t.Parallel()
		l, logs := cleanRun()
		// After msg-3 (token 70), worker-a is handed 70 again, on msg-4,
		// then 65 on msg-1. The 65 comes after the 70 it won on msg-3:
		// the reused 70 is no generation of its own.
		logs[0].Records = append(logs[0].Records,
			audit.Record{Op: "claim", ID: "msg-4", Token: 70, Result: audit.Claimed, ExpiresAt: 700},
			audit.Record{Op: "claim", ID: "msg-1", Token: 65, Result: audit.Claimed, ExpiresAt: 650})

		f := audit.Audit(l, logs)

		var told []string
		for _, v := range f.Violations {
			if v.Kind == audit.TokenNotIncreasing && strings.Contains(v.Detail, "token 65") {
				told = append(told, v.Detail)
			}
		}
		assert.Check(t, cmp.Equal(f.TokensNotIncreasing, 2), "tokens not increasing: want the reused 70 and the 65")
		assert.Assert(t, cmp.Len(told, 1), "the claim of 65 after 70: %q", f.Violations)
		assert.Check(t, cmp.Contains(told[0], "began a new generation with token 65 after it had won token 70 (on msg-3)"))
	})
}

// TestAuditFindsATerminalStateLeft: msg-1 was completed, and ends the
// run NEW again.
func TestAuditFindsATerminalStateLeft(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Rows["msg-1"] = mailbox.Message{ID: "msg-1", State: mailbox.New}
	l.AfterRun["msg-1"] = audit.ClaimTry{Claimed: true}

	f := audit.Audit(l, logs)

	assert.Check(t, cmp.Equal(f.TerminalLeft, 1), "terminal_left")
	assert.Check(t, cmp.Equal(f.Unfinished, 1), "unfinished: a NEW message a claim took after the run")
	assert.Check(t, cmp.Equal(f.Violations[0].Kind, audit.TerminalLeft), "the first violation told: %s", f.FirstViolation)
	for _, m := range []string{"terminal state left", "msg-1", "worker-a (pid 101) completed it with token 10", "ends with it NEW"} {
		assert.Check(t, cmp.Contains(f.FirstViolation, m))
	}
}

// TestAuditFindsABrokenRetryBudget: a failed message goes back to NEW
// only while it has retried fewer than mailbox.MaxRetries times, then to
// DEAD: no row counts more retries, and a DEAD row counts exactly that
// many.
func TestAuditFindsABrokenRetryBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		retries int
		mention string
	}{
		{"one-retry-too-many", mailbox.MaxRetries + 1, "msg-3 is DEAD after 4 retries; the budget is 3"},
		{"dead-too-soon", mailbox.MaxRetries - 1, "msg-3 is DEAD after 2 retries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, logs := cleanRun()
			row := l.Rows["msg-3"]
			row.RetryCount = tc.retries
			l.Rows["msg-3"] = row

			f := audit.Audit(l, logs)

			assertFound(t, f, audit.RetryBudget, 1, "retry budget broken: ", tc.mention)
		})
	}
}

// TestAuditFindsALostMessage: a message that is neither DONE nor DEAD and
// that no claim will take again: gone, NEW but refused, or held by a
// lease that never ends or ends past the audit.
func TestAuditFindsALostMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		row     *mailbox.Message // nil: the row is gone
		try     *audit.ClaimTry
		mention string
	}{
		{"gone", nil, nil, "msg-4 is gone from the ledger"},
		{"new-but-refused", &mailbox.Message{ID: "msg-4", State: mailbox.New}, &audit.ClaimTry{Reason: mailbox.NotClaimable},
			"msg-4 is NEW, and a claim after the run was refused: not_claimable"},
		{"lease-never-ends", &mailbox.Message{ID: "msg-4", State: mailbox.Claimed, Owner: "worker-b", Token: 80}, &audit.ClaimTry{Reason: mailbox.NotClaimable},
			"msg-4 is CLAIMED by worker-b under token 80 with a lease that never ends"},
		{"lease-ends-after-the-audit", &mailbox.Message{ID: "msg-4", State: mailbox.Claimed, Owner: "worker-b", Token: 80, Expires: true, ExpiresAt: auditedAt + 1},
			&audit.ClaimTry{Reason: mailbox.LeaseHeld}, "msg-4 is CLAIMED by worker-b under token 80 with a lease that ends at 10001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, logs := cleanRun()
			delete(l.Rows, "msg-4")
			if tc.row != nil {
				l.Rows["msg-4"] = *tc.row
			}
			if tc.try != nil {
				l.AfterRun["msg-4"] = *tc.try
			}
			logs[1].Records = logs[1].Records[:9] // worker-b was killed before it completed msg-4

			f := audit.Audit(l, logs)

			assertFound(t, f, audit.Lost, 1, "lost: ", tc.mention)
		})
	}
}

// TestAuditFindsAStuckMessage: msg-4 is CLAIMED, its lease ended, and a
// claim after the run was still refused.
func TestAuditFindsAStuckMessage(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Rows["msg-4"] = mailbox.Message{ID: "msg-4", State: mailbox.Claimed, Owner: "worker-b", Token: 80, Expires: true, ExpiresAt: auditedAt - auditLease}
	l.AfterRun["msg-4"] = audit.ClaimTry{Reason: mailbox.LeaseHeld}
	logs[1].Records = logs[1].Records[:11] // worker-b was killed before it completed msg-4

	f := audit.Audit(l, logs)

	assertFound(t, f, audit.Stuck, 1, "stuck: msg-4 is CLAIMED by worker-b under token 80", "its lease ended at 9960", "refused: lease_held")
}

// TestAuditFindsAnUnfinishedMessage: the run stopped with msg-4 NEW, and
// a claim after the run took it: nothing was wrong with msg-4, except
// that nobody finished it.
func TestAuditFindsAnUnfinishedMessage(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Rows["msg-4"] = mailbox.Message{ID: "msg-4", State: mailbox.New}
	l.AfterRun["msg-4"] = audit.ClaimTry{Claimed: true}
	logs[1].Records = logs[1].Records[:9]

	f := audit.Audit(l, logs)

	assertFound(t, f, audit.Unfinished, 1, "unfinished: msg-4 was NEW when the workers stopped", "a claim after the run took it")
}

// TestAuditFindsADamagedFile: when SQLite's integrity_check answers
// anything but "ok", that is told first, whatever else is wrong.
func TestAuditFindsADamagedFile(t *testing.T) {
	t.Parallel()
	l, logs := cleanRun()
	l.Integrity = "*** in database main ***; Page 7: btreeInitPage() returns error code 11"
	logs[0].Records = append(logs[0].Records, audit.Record{Op: "complete", ID: "msg-2", Token: 20, Result: audit.Completed})

	f := audit.Audit(l, logs)

	assert.Check(t, cmp.Equal(f.IntegrityCheck, l.Integrity))
	assert.Check(t, cmp.Equal(f.DoubleCompletions, 1))
	assert.Check(t, cmp.Equal(f.Violations[0].Kind, audit.Integrity), "the first violation told: %s", f.FirstViolation)
	assert.Check(t, strings.HasPrefix(f.FirstViolation, "integrity_check: PRAGMA integrity_check answered"), "first violation: %s", f.FirstViolation)
	assert.Check(t, cmp.Contains(f.FirstViolation, "btreeInitPage"))
}
