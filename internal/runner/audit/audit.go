// Package audit is the oracle of the torture run (chapter 9): once every
// worker process has stopped, it reads the ledger and the workers' records
// side by side and checks every promise the mailbox makes against them.
// Chapter 9's tests drive it with ledgers built by hand; package
// torturelab feeds it the real ones.
package audit

// This file holds the audit itself: after the run, the ledger and the workers'
// records are read side by side, and every promise the mailbox makes is
// checked against them.
//
// The records are what the workers were told. A kill -9 can take a
// record back (the last answer of a process killed between the commit and
// the write), so a record may be missing, but a record that exists is
// true: a worker writes "completed" only once Complete has returned nil.
// Every check is therefore built from what exists: a missing record can
// hide a violation, never make one up. A check that would need every
// record (for example "the number of completes equals the number of DONE
// rows") is not made.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/mailbox"
)

// Kind is a kind of violation. Its value is the key under which the
// audit counts it.
type Kind string

// The kinds of violation, in the order a message's violations are told.
const (
	// DoubleCompletion: two completes were both accepted for one message.
	DoubleCompletion Kind = "double_completions"
	// StaleComplete: a complete was accepted under a generation that was
	// no longer the message's: the DONE row names another owner or token.
	StaleComplete Kind = "stale_completes_accepted"
	// TokenNotIncreasing: a claim began a new generation with a token
	// that was not greater than every token handed out before it: one
	// another claim had already won, or one no greater than a token the
	// same process had already won.
	TokenNotIncreasing Kind = "tokens_not_increasing"
	// TerminalLeft: a message a worker was told is DONE or DEAD ends the
	// run in another state.
	TerminalLeft Kind = "terminal_left"
	// RetryBudget: a message retried more often than mailbox.MaxRetries
	// allows, or parked in DEAD before its retries were spent.
	RetryBudget Kind = "retry_budget_broken"
	// Lost: a message neither DONE nor DEAD nor claimable again: gone
	// from the table, refused to every claim although NEW, or held by a
	// lease that never ends.
	Lost Kind = "lost"
	// Stuck: a CLAIMED message whose lease has passed, and that no claim
	// can take.
	Stuck Kind = "stuck"
	// Unfinished: a message still claimable when the run ended: the run
	// stopped making progress before every message was DONE or DEAD.
	Unfinished Kind = "unfinished"
	// StaleWrite: the fenced store of torture --lock etcd accepted a write
	// whose token was below one it had already accepted for the same key.
	StaleWrite Kind = "stale_writes_accepted"
	// Integrity: SQLite's integrity_check found the file damaged.
	Integrity Kind = "integrity_check"
)

// kindOrder is the order in which violations are told, the file's own
// first.
var kindOrder = []Kind{Integrity, DoubleCompletion, StaleWrite, StaleComplete, TokenNotIncreasing, TerminalLeft, RetryBudget, Lost, Stuck, Unfinished}

// words is how the first-violation line names each kind.
var words = map[Kind]string{
	DoubleCompletion:   "double completion",
	StaleComplete:      "stale complete accepted",
	StaleWrite:         "stale write accepted",
	TokenNotIncreasing: "tokens not increasing",
	TerminalLeft:       "terminal state left",
	RetryBudget:        "retry budget broken",
	Lost:               "lost",
	Stuck:              "stuck",
	Unfinished:         "unfinished",
	Integrity:          "integrity_check",
}

// Violation is one broken promise the audit found.
type Violation struct {
	Kind   Kind
	ID     string // the message; "" for the file as a whole
	Detail string // what happened: message id, owners, tokens
}

func (v Violation) String() string { return words[v.Kind] + ": " + v.Detail }

// Findings is the audit's verdict. Its JSON is the run's "audit": a count
// per kind, "ok" for a sound file, and the first violation in words.
type Findings struct {
	DoubleCompletions      int    `json:"double_completions"`
	Lost                   int    `json:"lost"`
	Stuck                  int    `json:"stuck"`
	StaleCompletesAccepted int    `json:"stale_completes_accepted"`
	TokensNotIncreasing    int    `json:"tokens_not_increasing"`
	IntegrityCheck         string `json:"integrity_check"`
	TerminalLeft           int    `json:"terminal_left"`
	RetryBudgetBroken      int    `json:"retry_budget_broken"`
	Unfinished             int    `json:"unfinished"`
	// StaleWritesAccepted is counted by AuditStore only (torture --lock
	// etcd): a mailbox run has no store to write to, and leaves it out.
	StaleWritesAccepted *int   `json:"stale_writes_accepted,omitempty"`
	FirstViolation      string `json:"first_violation,omitempty"`
	// Violations, in the order they are told: the file's own first, then
	// message by message in the order the run added them, each message's
	// in kindOrder.
	Violations []Violation `json:"-"`
}

// Clean reports whether the audit found nothing.
func (f Findings) Clean() bool { return len(f.Violations) == 0 }

// Audit checks ledger l against the records in logs.
func Audit(l Ledger, logs []Log) Findings {
	a := &audit{l: l, completes: map[string][]said{}, parked: map[string][]said{}}
	if l.Integrity != "ok" {
		a.add(Integrity, "", "PRAGMA integrity_check answered %q", l.Integrity)
	}
	a.readLogs(logs, true)
	for _, id := range l.Messages {
		a.checkMessage(id)
	}
	return a.findings()
}

// said is one answer a worker process was given.
type said struct {
	log *Log
	rec Record
}

// who names the process that was told it: "worker-c (pid 4242)".
func (s said) who() string { return fmt.Sprintf("%s (pid %d)", s.log.Owner, s.log.Pid) }

// audit is one audit in progress.
type audit struct {
	l          Ledger
	completes  map[string][]said // accepted completes, by message
	parked     map[string][]said // accepted dead-letters that parked the message in DEAD
	violations []Violation
}

func (a *audit) add(k Kind, id, format string, args ...any) {
	a.violations = append(a.violations, Violation{Kind: k, ID: id, Detail: fmt.Sprintf(format, args...)})
}

// readLogs collects the accepted completes and dead-letters, and checks
// every claim that began a new generation: its token must be one no
// other claim was given and, if perProcess, greater than every token its
// own process was given before (a process's records are in the order it
// made the calls, and the mailbox's counter only goes up).
func (a *audit) readLogs(logs []Log, perProcess bool) {
	won := map[int64]said{} // the claims that began a generation, by token
	for i := range logs {
		log := &logs[i]
		var newest said // the process's own newest generation so far
		for _, rec := range log.Records {
			s := said{log: log, rec: rec}
			switch {
			case rec.Op == "complete" && rec.Result == Completed:
				a.completes[rec.ID] = append(a.completes[rec.ID], s)
			case rec.Op == "dead-letter" && rec.Result == DeadLettered:
				a.parked[rec.ID] = append(a.parked[rec.ID], s)
			case rec.Op == "claim" && rec.Result == Claimed:
				if earlier, ok := won[rec.Token]; ok {
					by := earlier.who() + " had"
					if earlier.log == log {
						by = "it had itself"
					}
					a.add(TokenNotIncreasing, rec.ID, "%s: %s began a new generation with token %d, which %s already won (on %s); a new generation must get a token never handed out before",
						rec.ID, s.who(), rec.Token, by, earlier.rec.ID)
				} else if perProcess && newest.log != nil && rec.Token <= newest.rec.Token {
					a.add(TokenNotIncreasing, rec.ID, "%s: %s began a new generation with token %d after it had won token %d (on %s); tokens must only increase",
						rec.ID, s.who(), rec.Token, newest.rec.Token, newest.rec.ID)
				}
				if _, ok := won[rec.Token]; !ok {
					won[rec.Token] = s
				}
				if newest.log == nil || rec.Token > newest.rec.Token {
					newest = s
				}
			}
		}
	}
}

// checkMessage checks message id's accepted terminal writes against each
// other and against its row, and, if the row is neither DONE nor DEAD,
// whether a claim could still take it.
func (a *audit) checkMessage(id string) {
	row, present := a.l.Rows[id]
	done := a.completes[id]
	if len(done) > 1 {
		more := ""
		if len(done) > 2 {
			more = fmt.Sprintf(", and %d more", len(done)-2)
		}
		a.add(DoubleCompletion, id, "%s was completed twice: by %s with token %d, and by %s with token %d%s",
			id, done[0].who(), done[0].rec.Token, done[1].who(), done[1].rec.Token, more)
	}
	// Complete writes DONE and nothing else: the row it accepts keeps its
	// owner and token. So a DONE row that names another owner or token
	// than the one accepted complete was DONE under a generation that
	// was not the completer's.
	if len(done) == 1 && present && row.State == mailbox.Done && (row.Owner != done[0].log.Owner || row.Token != done[0].rec.Token) {
		a.add(StaleComplete, id, "%s: %s completed it with token %d, but its DONE row belongs to %s under token %d: the complete was accepted for a generation that was not the current one",
			id, done[0].who(), done[0].rec.Token, row.Owner, row.Token)
	}
	if present {
		if len(done) > 0 && row.State != mailbox.Done {
			a.add(TerminalLeft, id, "%s: %s completed it with token %d, yet the ledger ends with it %s; DONE is terminal",
				id, done[0].who(), done[0].rec.Token, row.State)
		} else if dead := a.parked[id]; len(dead) > 0 && row.State != mailbox.Dead {
			a.add(TerminalLeft, id, "%s: %s dead-lettered it with token %d, yet the ledger ends with it %s; DEAD is terminal",
				id, dead[0].who(), dead[0].rec.Token, row.State)
		}
		a.checkBudget(row)
	}
	a.checkOpen(id, row, present)
}

// checkBudget checks a row's retries against the budget: a failed
// message goes back to NEW while it has retried fewer than
// mailbox.MaxRetries times, and to DEAD after that, so no row counts more
// retries than the budget, and a DEAD row counts exactly the budget.
func (a *audit) checkBudget(row mailbox.Message) {
	switch {
	case row.RetryCount > mailbox.MaxRetries:
		a.add(RetryBudget, row.ID, "%s is %s after %d retries; the budget is %d", row.ID, row.State, row.RetryCount, mailbox.MaxRetries)
	case row.State == mailbox.Dead && row.RetryCount < mailbox.MaxRetries:
		a.add(RetryBudget, row.ID, "%s is DEAD after %d retries; a message goes DEAD only once its %d retries are spent",
			row.ID, row.RetryCount, mailbox.MaxRetries)
	}
}

// checkOpen tells lost, stuck and unfinished apart for a message whose
// row is neither DONE nor DEAD.
func (a *audit) checkOpen(id string, row mailbox.Message, present bool) {
	if !present {
		a.add(Lost, id, "%s is gone from the ledger", id)
		return
	}
	try, tried := a.l.AfterRun[id]
	switch {
	case row.State == mailbox.Done || row.State == mailbox.Dead:
		return
	case row.State == mailbox.Claimed && !row.Expires:
		a.add(Lost, id, "%s is CLAIMED by %s under token %d with a lease that never ends", id, row.Owner, row.Token)
	case row.State == mailbox.Claimed && tried && row.ExpiresAt > a.l.CheckedAt:
		a.add(Lost, id, "%s is CLAIMED by %s under token %d with a lease that ends at %d, after the audit at %d: later than any lease the run grants",
			id, row.Owner, row.Token, row.ExpiresAt, a.l.CheckedAt)
	case row.State != mailbox.New && row.State != mailbox.Claimed:
		a.add(Lost, id, "%s is in state %q, which no claim takes", id, row.State)
	case !tried:
		a.add(Unfinished, id, "%s is %s and was never tried after the run", id, row.State)
	case try.Reason != "" && row.State == mailbox.New:
		a.add(Lost, id, "%s is NEW, and a claim after the run was refused: %s", id, try.Reason)
	case try.Reason != "":
		a.add(Stuck, id, "%s is CLAIMED by %s under token %d; its lease ended at %d, and a claim after the run was refused: %s",
			id, row.Owner, row.Token, row.ExpiresAt, try.Reason)
	case try.Error != "":
		a.add(Unfinished, id, "%s was %s when the workers stopped, and a claim after the run failed: %s", id, row.State, try.Error)
	default:
		a.add(Unfinished, id, "%s was %s when the workers stopped, and a claim after the run took it: the run ended before every message was DONE or DEAD",
			id, row.State)
	}
}

// findings counts the violations and tells them in order.
func (a *audit) findings() Findings {
	position := map[string]int{"": -1}
	for i, id := range a.l.Messages {
		if _, ok := position[id]; !ok {
			position[id] = i
		}
	}
	rank := func(v Violation) int {
		if p, ok := position[v.ID]; ok {
			return p
		}
		return len(a.l.Messages) // records about ids the run never added
	}
	slices.SortStableFunc(a.violations, func(x, y Violation) int {
		return cmp.Or(cmp.Compare(rank(x), rank(y)), cmp.Compare(x.ID, y.ID),
			cmp.Compare(slices.Index(kindOrder, x.Kind), slices.Index(kindOrder, y.Kind)))
	})
	f := Findings{IntegrityCheck: a.l.Integrity, Violations: a.violations}
	for _, v := range a.violations {
		switch v.Kind {
		case DoubleCompletion:
			f.DoubleCompletions++
		case StaleComplete:
			f.StaleCompletesAccepted++
		case TokenNotIncreasing:
			f.TokensNotIncreasing++
		case TerminalLeft:
			f.TerminalLeft++
		case RetryBudget:
			f.RetryBudgetBroken++
		case Lost:
			f.Lost++
		case Stuck:
			f.Stuck++
		case Unfinished:
			f.Unfinished++
		}
	}
	if len(a.violations) > 0 {
		f.FirstViolation = a.violations[0].String()
	}
	return f
}

// Summary is the audit's verdict in one line, for stderr: how many
// violations, and the first of them.
func (f Findings) Summary() string {
	if f.Clean() {
		return "the audit is clean"
	}
	n := "1 violation"
	if len(f.Violations) > 1 {
		n = fmt.Sprintf("%d violations", len(f.Violations))
	}
	return strings.Join([]string{"the audit found " + n, "the first: " + f.FirstViolation}, "; ")
}
