package underfire

// This file runs a mailbox sequence against the real mailbox (a fresh
// SQLite file, one connection pool per owner, a logical clock) and the
// model side by side, and stops at the first step where they disagree:
// about the answer, the message's committed row, or the token counter.

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token/tokentest"
)

// mailboxBench is the real side of one run.
type mailboxBench struct {
	ledgerDir
	lease int64
	first *sqlitedb.DB // set-up, committed reads, the counter
	boxes map[slot]*mailbox.Mailbox
	pools map[slot]*pausable
	depth int // how many overtaken calls the step now running is inside
}

// newMailboxBench creates a ledger holding the starting messages in a
// directory of its own.
func newMailboxBench(tb testing.TB, lease int64) *mailboxBench {
	tb.Helper()
	b := &mailboxBench{ledgerDir: newLedgerDir(tb), lease: lease, boxes: map[slot]*mailbox.Mailbox{}, pools: map[slot]*pausable{}}
	b.first = b.open(mailboxFile)
	if err := mailbox.CreateSchema(b.ctx, b.first); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	setup := mailbox.Open(b.first, b.clock, lease)
	for _, m := range messages {
		if err := setup.Add(b.ctx, m.id, m.body); err != nil {
			tb.Fatalf("add %s: %v", m.id, err)
		}
	}
	return b
}

// mailboxFile is the ledger's file in the run's directory.
const mailboxFile = "ledger.db"

// box returns the mailbox owner calls through, and its pool: one of
// processes connection pools, each what a separate worker process would
// have. Owners share them as workers in processes do; the ordinary
// workers each have their own. A step that overtakes another calls
// through pools of its own (slot).
func (b *mailboxBench) box(owner string) (*mailbox.Mailbox, *pausable) {
	at := slot{process(owner, plainOwners, oddOwners), b.depth}
	if b.boxes[at] == nil {
		b.pools[at] = b.openPausable(mailboxFile)
		b.boxes[at] = mailbox.Open(b.pools[at].db, b.clock, b.lease)
	}
	return b.boxes[at], b.pools[at]
}

// replayMailbox runs c's steps on a fresh ledger and on the model. It
// returns how many steps ran and, if they disagreed, the lines up to the
// step where they did; nil if they agreed throughout.
func replayMailbox(tb testing.TB, c mailboxCase) (int, *disagreement) {
	tb.Helper()
	bench := newMailboxBench(tb, c.lease)
	defer bench.close()
	mm := newMailboxModel(c.lease)
	toks := newTokens()
	lines, ran, d := replaySteps(c.steps, func(rest []mailboxStep) (int, []string, string) { return runMailboxSteps(bench, mm, toks, rest) })
	if d != nil {
		return ran, d
	}
	for _, m := range messages {
		if got, want, ok := rowsAgree(bench, mm, toks, m.id); !ok {
			lines = append(lines, fmt.Sprintf("# after the last step, %s's row: %s; model: %s", m.id, got, want))
			return len(c.steps), &disagreement{lines: lines, what: m.id + "'s committed row"}
		}
	}
	line := "# after the last step"
	if what := countersAgree(bench, mm, toks, &line); what != "" {
		return len(c.steps), &disagreement{lines: append(lines, line), what: what}
	}
	return len(c.steps), nil
}

// runMailboxSteps runs steps[0] on both sides and, if it is overtaken, the
// steps that overtake it, inside its pause. It returns how many steps ran,
// their printed lines in the order of steps, and what the first
// disagreement was about ("" if none).
func runMailboxSteps(b *mailboxBench, mm *mailboxModel, toks *tokens, steps []mailboxStep) (n int, lines []string, what string) {
	s := steps[0]
	if !s.overtaken || len(steps) == 1 {
		line, what := mailboxStepBoth(b, mm, toks, s, nil)
		return 1, []string{line}, what
	}
	var inner []string
	var innerWhat string
	line, what := mailboxStepBoth(b, mm, toks, s, func() {
		b.depth++
		n, inner, innerWhat = runMailboxSteps(b, mm, toks, steps[1:])
		b.depth--
	})
	if innerWhat != "" {
		what = innerWhat // the overtaker's transaction came first
	}
	return 1 + n, append([]string{line}, inner...), what
}

// mailboxStepBoth runs s on both sides and returns its printed line and,
// if they disagreed, what about. A non-nil overtaker runs just before s's
// transaction begins (or after s, if it began none), and is applied to
// the model first.
func mailboxStepBoth(b *mailboxBench, mm *mailboxModel, toks *tokens, s mailboxStep, overtaker func()) (line, what string) {
	b.clock.Set(s.at)
	presented := mm.presented(s)
	box, pool := b.box(s.owner)
	after := func() {}
	if overtaker != nil {
		after = pool.hold(func() {
			overtaker()
			b.clock.Set(s.at)
		})
	}
	var claim mailbox.Claim
	var verdict mailbox.Verdict
	var err error
	switch s.op {
	case "Claim":
		claim, err = box.Claim(b.ctx, s.id, s.owner)
	case "Complete":
		err = box.Complete(b.ctx, s.id, s.owner, toks.toReal(presented))
	case "DeadLetter":
		verdict, err = box.DeadLetter(b.ctx, s.id, toks.toReal(presented))
	}
	after()
	want := mailboxOutcome{Answer: mm.apply(s, presented)}
	got := outcomeOf(err)
	switch {
	case err != nil:
	case s.op == "Claim":
		got.Token, got.Renewed, got.Expires, got.ExpiresAt = toks.toModel(claim.Token), claim.Renewed, claim.Expires, claim.ExpiresAt
		if got.Token < 0 && want.Refused == "" && !want.Renewed && toks.bindNew(want.Token, claim.Token) {
			got.Token = want.Token // a new generation on both sides: from now on they are one token
		}
	case s.op == "DeadLetter":
		got.Verdict = verdict
	}

	line = s.String() + " -> "
	if overtaker != nil {
		line += "after the next step, "
	}
	if s.tok != "" {
		line += "presented " + toks.say(presented) + ": "
	}
	line += sayMailbox(s.op, got, toks)
	if got != want {
		return line + "; model: " + sayMailbox(s.op, want, toks), "the answer"
	}
	if gotRow, wantRow, ok := rowsAgree(b, mm, toks, s.id); !ok {
		return fmt.Sprintf("%s; row: %s; model: %s", line, gotRow, wantRow), s.id + "'s committed row"
	}
	if s.op != "Claim" {
		return line, "" // only claims mint; replayMailbox reads the counter once more at the end
	}
	return line, countersAgree(b, mm, toks, &line)
}

// countersAgree compares the token counter with the newest token the model
// handed out, and says what differs on line.
func countersAgree(b *mailboxBench, mm *mailboxModel, toks *tokens, line *string) string {
	minted := tokentest.Minted(b.tb, b.first)
	if wantMinted := toks.toReal(mm.m.Minted()); minted != wantMinted {
		*line += fmt.Sprintf("; the counter stands at %d; model: at %d, the newest token handed out", minted, wantMinted)
		return "the token counter"
	}
	return ""
}

// rowsAgree compares message id's committed row with the model's. An id
// the model does not know must not exist in the mechanism either.
func rowsAgree(b *mailboxBench, mm *mailboxModel, toks *tokens, id string) (got, want string, ok bool) {
	msg, err := mailbox.Open(b.first, b.clock, b.lease).Get(b.ctx, id)
	wantMsg, known := mm.m.Message(id)
	switch {
	case !known && errors.Is(err, mailbox.ErrNotFound):
		return "", "", true
	case !known:
		return fmt.Sprintf("%v (%v)", msg, err), "no such message", false
	case err != nil:
		return "gone (" + err.Error() + ")", sayMessage(wantMsg, toks), false
	}
	gotMsg := model.Message{Body: msg.Body, State: msg.State, Owner: msg.Owner, Token: toks.toModel(msg.Token),
		Expires: msg.Expires, ExpiresAt: msg.ExpiresAt, Retries: msg.RetryCount}
	return sayMessage(gotMsg, toks), sayMessage(wantMsg, toks), gotMsg == wantMsg
}
