package underfire

// This file holds the mailbox sequences: their steps, their text form,
// how they are drawn at random, and the model's side of running one.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/mailbox"
	"pgregory.net/rapid"
)

// The mailbox every sequence starts from: the five NEW messages of
// chapters 1 to 4. Steps also name ids that do not exist.
var (
	messages = []struct{ id, body string }{
		{"msg-1", "Restock vanilla"},
		{"msg-2", "Order cones"},
		{"msg-3", "Call the supplier"},
		{"msg-4", "Reorder sprinkles"},
		{"msg-5", "Count the till"},
	}
	unknownMessages = []string{"msg-404", "MSG-1"}
	// Owners: three ordinary workers, and names that differ from
	// worker-a by one invisible detail, or carry quotes, or are empty.
	plainOwners = []string{"worker-a", "worker-b", "worker-c"}
	oddOwners   = []string{"", "worker-a ", "WORKER-A", "worker-a\x00", `o'brien"; --`, "wörker-ß"}
)

// mailboxCase is one sequence of steps, and the lease every claim in it
// takes.
type mailboxCase struct {
	lease int64 // mailbox.NoLease: claims never expire
	steps []mailboxStep
}

// mailboxStep is one owner's call at one logical time.
type mailboxStep struct {
	at    int64
	owner string
	op    string // Claim, Complete or DeadLetter
	id    string
	tok   tokenRef // the token Complete and DeadLetter present
	// overtaken: the next step runs whole just before this call's
	// transaction begins (overtake_test.go).
	overtaken bool
}

func (s mailboxStep) String() string {
	args := s.id
	if s.tok != "" {
		args += ", token=" + string(s.tok)
	}
	if s.overtaken {
		args += ", overtaken"
	}
	return fmt.Sprintf("t=%d %s %s(%s)", s.at, quoteName(s.owner), s.op, args)
}

func (c mailboxCase) header() []string {
	if c.lease == mailbox.NoLease {
		return []string{"lease none"}
	}
	return []string{fmt.Sprintf("lease %d", c.lease)}
}

// parseMailboxCase reads a case file: a `lease N` (or `lease none`) line,
// then one step per line as mailboxStep.String prints it.
func parseMailboxCase(text string) (mailboxCase, error) {
	lines := caseLines(text)
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "lease ") {
		return mailboxCase{}, errors.New("want a first line `lease N` or `lease none`")
	}
	var c mailboxCase
	if l := strings.TrimPrefix(lines[0], "lease "); l != "none" {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil || n <= 0 {
			return mailboxCase{}, fmt.Errorf("lease %q: want a positive number or none", l)
		}
		c.lease = n
	}
	for _, l := range lines[1:] {
		p, err := parseStep(l)
		if err != nil {
			return mailboxCase{}, err
		}
		s := mailboxStep{at: p.at, owner: p.actor, op: p.op, id: p.args[0], tok: tokenRef(p.option("token")),
			overtaken: p.flag("overtaken")}
		switch {
		case s.op == "Claim":
		case s.op != "Complete" && s.op != "DeadLetter":
			return mailboxCase{}, fmt.Errorf("%q: want Claim, Complete or DeadLetter", l)
		case !isTokenRef(s.tok):
			return mailboxCase{}, fmt.Errorf("%q: want token= one of %v", l, tokenRefs)
		}
		c.steps = append(c.steps, s)
	}
	return c, nil
}

func isTokenRef(r tokenRef) bool {
	for _, t := range tokenRefs {
		if r == t {
			return true
		}
	}
	return false
}

// mailboxModel is the model's side of a run: the model, and the tokens
// each owner won, so a step's token ref means the same on both sides.
type mailboxModel struct {
	m   *model.Mailbox
	won []won[model.Token]
}

func newMailboxModel(lease int64) *mailboxModel {
	m := model.NewMailbox(lease)
	for _, msg := range messages {
		m.Add(msg.id, msg.body)
	}
	return &mailboxModel{m: m}
}

// presented returns the token s presents, as the model numbers it.
func (mm *mailboxModel) presented(s mailboxStep) model.Token {
	return resolve(s.tok, mm.won, s.owner, s.id, model.Token(neverIssued))
}

// apply runs s on the model, presenting the token presented (what
// mm.presented said when s's call began), and returns its answer.
func (mm *mailboxModel) apply(s mailboxStep, presented model.Token) model.Answer {
	switch s.op {
	case "Claim":
		a := mm.m.Claim(s.id, s.owner, s.at)
		if a.Refused == "" && !a.NotFound && !a.Renewed {
			mm.won = append(mm.won, won[model.Token]{s.owner, s.id, a.Token})
		}
		return a
	case "Complete":
		return mm.m.Complete(s.id, s.owner, presented)
	}
	return mm.m.DeadLetter(s.id, presented)
}

// leaseEnds returns the minutes at which the model's live leases end.
func (mm *mailboxModel) leaseEnds() []int64 {
	var ends []int64
	for _, msg := range messages {
		if m, _ := mm.m.Message(msg.id); m.State == mailbox.Claimed && m.Expires {
			ends = append(ends, m.ExpiresAt)
		}
	}
	return ends
}

// generateMailbox draws a sequence of rounds rounds (drawSteps). It runs
// the model as it goes, only to aim times at the leases' ends; the
// mechanism is not involved. With overtake, about one step in three is
// overtaken by the next, which mostly names the same message, and half
// the time makes the same call.
func generateMailbox(t *rapid.T, lease int64, overtake bool, rounds int) mailboxCase {
	c := mailboxCase{lease: lease}
	mm := newMailboxModel(lease)
	span := max(lease, 15)
	var now int64
	var held []mailboxStep // an overtaken step, applied to the model after its overtaker
	var heldTok model.Token
	drawSteps(t, rounds, func(t *rapid.T) {
		now = drawTime(t, now, mm.leaseEnds(), span)
		s := mailboxStep{at: now, owner: choose(t, "owner", plainOwners...), id: choose(t, "message", messages...).id}
		if len(held) > 0 && !chance(t, "overtaker on another message", 1, 4) {
			s.id = held[0].id
		}
		if chance(t, "odd owner", 3, 10) {
			s.owner = choose(t, "odd owner", oddOwners...)
		}
		if chance(t, "unknown message", 1, 8) {
			s.id = choose(t, "unknown message", unknownMessages...)
		}
		switch n := below(t, "call", 20); {
		case n < 11:
			s.op = "Claim"
		case n < 15:
			s.op = "Complete"
		default:
			s.op = "DeadLetter"
		}
		if len(held) > 0 && chance(t, "same call", 1, 2) {
			s.op = held[0].op // the same call twice at once: the race the transaction must settle
		}
		if s.op == "Complete" || s.op == "DeadLetter" {
			s.tok = choose(t, "token", latest, latest, latest, earlier, other, none, never)
		}
		if msg, _ := mm.m.Message(s.id); len(held) > 0 && msg.State == mailbox.Claimed && chance(t, "holder first", 1, 2) {
			s.owner, s.tok = msg.Owner, latest // the holder itself, with its token, gets in first
			if s.op == "Claim" {
				s.tok = ""
			}
		}
		if msg, _ := mm.m.Message(s.id); chance(t, "impostor", 1, 10) && msg.State == mailbox.Claimed {
			// An impostor: a name like the holder's, presenting the holder's token.
			s.owner, s.op, s.tok = lookAlike(t, msg.Owner), "Complete", other
		}
		if overtake && len(held) == 0 && chance(t, "overtaken", 1, 3) {
			s.overtaken = true
			c.steps = append(c.steps, s)
			held, heldTok = []mailboxStep{s}, mm.presented(s)
			return
		}
		c.steps = append(c.steps, s)
		mm.apply(s, mm.presented(s))
		if len(held) > 0 {
			mm.apply(held[0], heldTok)
			held = nil
		}
	})
	return c
}

// mailboxOutcome is an answer in the model's terms: the model's own, or
// the mechanism's translated. Err holds an error that is neither a
// refusal nor ErrNotFound (the model never gives one).
type mailboxOutcome struct {
	model.Answer
	Err string
}

// outcomeOf translates the mechanism's error into the model's terms.
func outcomeOf(err error) mailboxOutcome {
	var o mailboxOutcome
	var r *mailbox.Refusal
	switch {
	case err == nil:
	case errors.Is(err, mailbox.ErrNotFound):
		o.NotFound = true
	case errors.As(err, &r):
		o.Refused, o.Holder = r.Reason, r.Holder
	default:
		o.Err = err.Error()
	}
	return o
}

// sayMailbox describes an outcome of op for a person.
func sayMailbox(op string, o mailboxOutcome, toks *tokens) string {
	switch {
	case o.Err != "":
		return "error: " + o.Err
	case o.NotFound:
		return "not found"
	case o.Refused == mailbox.LeaseHeld:
		return fmt.Sprintf("refused %s by %s", o.Refused, quoteName(o.Holder))
	case o.Refused != "":
		return "refused " + string(o.Refused)
	case op == "Complete":
		return "done"
	case op == "DeadLetter":
		return string(o.Verdict)
	case op != "Claim":
		return "accepted"
	}
	s := toks.say(o.Token)
	if o.Renewed {
		s += " renewed"
	}
	if !o.Expires {
		return s + ", no lease"
	}
	return fmt.Sprintf("%s, lease until %d", s, o.ExpiresAt)
}

// sayMessage describes a committed row for a person.
func sayMessage(m model.Message, toks *tokens) string {
	lease := "no lease"
	if m.Expires {
		lease = fmt.Sprintf("lease until %d", m.ExpiresAt)
	}
	return fmt.Sprintf("%s, owner %s, %s, %s, %d retries, body %q",
		m.State, quoteName(m.Owner), toks.say(m.Token), lease, m.Retries, m.Body)
}
