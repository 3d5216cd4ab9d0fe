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
	boxes [processes]*mailbox.Mailbox
}

// newMailboxBench creates a ledger holding the starting messages in a
// directory of its own.
func newMailboxBench(tb testing.TB, lease int64) *mailboxBench {
	tb.Helper()
	b := &mailboxBench{ledgerDir: newLedgerDir(tb), lease: lease}
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

// box returns the mailbox owner calls through: one of processes
// connection pools, each what a separate worker process would have.
// Owners share them as workers in processes do; the ordinary workers each
// have their own.
func (b *mailboxBench) box(owner string) *mailbox.Mailbox {
	p := process(owner, plainOwners, oddOwners)
	if b.boxes[p] == nil {
		b.boxes[p] = mailbox.Open(b.open(mailboxFile), b.clock, b.lease)
	}
	return b.boxes[p]
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
	lines, d := replaySteps(c.steps, func(s mailboxStep) (string, string) { return mailboxStepBoth(bench, mm, toks, s) })
	if d != nil {
		return len(lines), d
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

// mailboxStepBoth runs s on both sides and returns its printed line and,
// if they disagreed, what about.
func mailboxStepBoth(b *mailboxBench, mm *mailboxModel, toks *tokens, s mailboxStep) (line, what string) {
	b.clock.Set(s.at)
	presented := mm.presented(s)
	want := mailboxOutcome{Answer: mm.apply(s)}
	box := b.box(s.owner)
	var got mailboxOutcome
	switch s.op {
	case "Claim":
		c, err := box.Claim(b.ctx, s.id, s.owner)
		got = outcomeOf(err)
		if err == nil {
			got.Token, got.Renewed, got.Expires, got.ExpiresAt = toks.toModel(c.Token), c.Renewed, c.Expires, c.ExpiresAt
			if got.Token < 0 && want.Refused == "" && !want.Renewed && toks.bindNew(want.Token, c.Token) {
				got.Token = want.Token // a new generation on both sides: from now on they are one token
			}
		}
	case "Complete":
		got = outcomeOf(box.Complete(b.ctx, s.id, s.owner, toks.toReal(presented)))
	case "DeadLetter":
		v, err := box.DeadLetter(b.ctx, s.id, toks.toReal(presented))
		got = outcomeOf(err)
		if err == nil {
			got.Verdict = v
		}
	}

	line = s.String() + " -> "
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
