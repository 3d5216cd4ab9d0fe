package underfire

// This file holds the actor sequences (chapter 8): processes acquire and
// release actor leases, start attempts under the lease they present, and
// run assignments the ordinary way. Their steps, their text form, how they
// are drawn at random, and the model's side of running one.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/actor"
	"pgregory.net/rapid"
)

// The ledger every actor sequence starts from: two actors, six
// assignments. Steps also name an assignment that does not exist.
var (
	actorNames  = []string{"operator", "operator-b"}
	assignments = []struct{ id, actor string }{
		{"asg-1", "operator"},
		{"asg-2", "operator"},
		{"asg-3", "operator"},
		{"asg-4", "operator"},
		{"asg-5", "operator-b"},
		{"asg-6", "operator-b"},
	}
	unknownAssignments = []string{"asg-404"}
	// The processes: each a separate program with its own identity.
	processNames = []string{"A", "B", "C"}
	runResults   = []actor.State{actor.Completed, actor.Blocked, actor.Failed}
)

// actorCase is one sequence of steps and the lease every acquire takes.
type actorCase struct {
	lease int64
	steps []actorStep
}

// actorStep is one process's call at one logical time.
type actorStep struct {
	at      int64
	process string
	op      string      // AcquireLease, ReleaseLease, AcquireAttempt or Run
	id      string      // the actor (lease calls) or the assignment
	lease   tokenRef    // the lease ReleaseLease and AcquireAttempt present
	result  actor.State // Run: what the provider answers (FAILED: an error)
	stall   int64       // Run: how long the provider works, in the clock's units
	// overtaken is the transaction of this call, counted from 1, just
	// before which the next step runs whole (overtake_test.go); 0: none.
	// Only Run has more than one transaction.
	overtaken int
}

func (s actorStep) String() string {
	args := []string{s.id}
	if s.lease != "" {
		args = append(args, "lease="+string(s.lease))
	}
	if s.result != "" {
		args = append(args, string(s.result))
	}
	if s.stall != 0 {
		args = append(args, fmt.Sprintf("stall=%d", s.stall))
	}
	switch {
	case s.overtaken == 1:
		args = append(args, "overtaken")
	case s.overtaken > 1:
		args = append(args, fmt.Sprintf("overtaken=%d", s.overtaken))
	}
	return fmt.Sprintf("t=%d %s %s(%s)", s.at, quoteName(s.process), s.op, strings.Join(args, ", "))
}

func (c actorCase) header() []string { return []string{fmt.Sprintf("lease %d", c.lease)} }

// parseActorCase reads a case file: a `lease N` line, then one step per
// line as actorStep.String prints it.
func parseActorCase(text string) (actorCase, error) {
	lines := caseLines(text)
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "lease ") {
		return actorCase{}, errors.New("want a first line `lease N`")
	}
	var c actorCase
	n, err := strconv.ParseInt(strings.TrimPrefix(lines[0], "lease "), 10, 64)
	if err != nil || n <= 0 {
		return actorCase{}, fmt.Errorf("%q: want a positive lease", lines[0])
	}
	c.lease = n
	for _, l := range lines[1:] {
		p, err := parseStep(l)
		if err != nil {
			return actorCase{}, err
		}
		s := actorStep{at: p.at, process: p.actor, op: p.op, id: p.args[0], lease: tokenRef(p.option("lease"))}
		if p.flag("overtaken") {
			s.overtaken = 1
		} else if k := p.option("overtaken"); k != "" {
			if s.overtaken, err = strconv.Atoi(k); err != nil || s.overtaken < 1 {
				return actorCase{}, fmt.Errorf("%q: want overtaken=N, N from 1", l)
			}
		}
		for _, r := range runResults {
			if p.flag(string(r)) {
				s.result = r
			}
		}
		if d := p.option("stall"); d != "" {
			if s.stall, err = strconv.ParseInt(d, 10, 64); err != nil || s.stall < 0 {
				return actorCase{}, fmt.Errorf("%q: want stall=N, N from 0", l)
			}
		}
		switch {
		case s.op == "AcquireLease":
		case s.op == "Run" && s.result == "":
			return actorCase{}, fmt.Errorf("%q: a run names what its provider answers, one of %v", l, runResults)
		case s.op == "Run":
		case s.op != "ReleaseLease" && s.op != "AcquireAttempt":
			return actorCase{}, fmt.Errorf("%q: want AcquireLease, ReleaseLease, AcquireAttempt or Run", l)
		case !isTokenRef(s.lease):
			return actorCase{}, fmt.Errorf("%q: want lease= one of %v", l, tokenRefs)
		}
		c.steps = append(c.steps, s)
	}
	return c, nil
}

// actorOfAssignment returns the actor assignment id belongs to; an
// unknown id is presented with the first actor's lease.
func actorOfAssignment(id string) string {
	for _, a := range assignments {
		if a.id == id {
			return a.actor
		}
	}
	return actorNames[0]
}

// leaseActor returns the actor whose lease s presents or takes.
func (s actorStep) leaseActor() string {
	if s.op == "AcquireLease" || s.op == "ReleaseLease" {
		return s.id
	}
	return actorOfAssignment(s.id)
}

// actorModel is the model's side of a run: the ledger, and the leases
// each process won, by actor.
type actorModel struct {
	m   *model.Actors
	won []won[model.Token]
}

func newActorModel(lease int64) *actorModel {
	m := model.NewActors(lease)
	for _, a := range assignments {
		m.Add(a.id, a.actor)
	}
	return &actorModel{m: m}
}

// presented returns the lease token s presents, as the model numbers it.
func (am *actorModel) presented(s actorStep) model.Token {
	return resolve(s.lease, am.won, s.process, s.leaseActor(), model.Token(neverIssued))
}

// actorOutcome is an answer in the model's terms. For a run: the lease
// and attempt tokens it was handed (0 if none) and the last state it saw.
// Err holds an error that is neither a refusal nor ErrNotFound.
type actorOutcome struct {
	model.ActorAnswer
	Attempt model.Token
	State   actor.State
	Err     string
}

// apply runs s on the model and returns its answer; presented is the
// lease s presents, as it was when s's call began. For a run, between
// calls before(k) just before the run's k-th step that would be a
// transaction of its own, counted from 1.
func (am *actorModel) apply(s actorStep, presented model.Token, before func(k int)) actorOutcome {
	switch s.op {
	case "AcquireLease":
		before(1)
		a := am.m.AcquireLease(s.process, s.id, s.at)
		if a.Refused == "" {
			am.won = append(am.won, won[model.Token]{s.process, s.id, a.Token})
		}
		return actorOutcome{ActorAnswer: a}
	case "ReleaseLease":
		before(1)
		return actorOutcome{ActorAnswer: am.m.ReleaseLease(s.process, s.id, presented)}
	case "AcquireAttempt":
		before(1)
		return actorOutcome{ActorAnswer: am.m.AcquireAttempt(s.process, s.id, s.leaseActor(), presented, s.at)}
	}
	return am.run(s, before)
}

// run is the ordinary run path (chapter 8) on the model: lease, attempt,
// RUNNING, the provider's answer after s.stall, the terminal write, each
// refusal ending the run, and the lease given back on every way out after
// it was taken (a lease already lost is not reported). Its answer is the
// first refusal, the tokens the run was handed and the last state it saw.
func (am *actorModel) run(s actorStep, before func(k int)) actorOutcome {
	asg, ok := am.m.Assignment(s.id)
	if !ok {
		return actorOutcome{ActorAnswer: model.ActorAnswer{NotFound: true}}
	}
	out := actorOutcome{State: asg.State}
	k := 0
	step := func() int { k++; before(k); return k }
	step()
	lease := am.m.AcquireLease(s.process, asg.Actor, s.at)
	if lease.Refused != "" {
		out.Refused, out.Holder = lease.Refused, lease.Holder
		return out
	}
	am.won = append(am.won, won[model.Token]{s.process, asg.Actor, lease.Token})
	out.Token = lease.Token
	defer func() {
		step()
		am.m.ReleaseLease(s.process, asg.Actor, lease.Token)
	}()
	step()
	att := am.m.AcquireAttempt(s.process, s.id, asg.Actor, lease.Token, s.at)
	if att.Refused != "" || att.NotFound {
		out.Refused, out.NotFound = att.Refused, att.NotFound
		return out
	}
	out.Attempt = att.Token
	step()
	if a := am.m.Start(s.process, s.id, att.Token, s.at); a.Refused != "" {
		out.Refused = a.Refused
		return out
	}
	out.State = actor.Running
	step()
	if a := am.m.Finish(s.process, s.id, att.Token, s.result, s.at+s.stall); a.Refused != "" {
		out.Refused = a.Refused
		return out
	}
	out.State = s.result
	return out
}

// leaseEnds returns when the model's live leases end.
func (am *actorModel) leaseEnds() []int64 {
	var ends []int64
	for _, a := range actorNames {
		if l, ok := am.m.Lease(a); ok && l.Holder != "" {
			ends = append(ends, l.ExpiresAt)
		}
	}
	return ends
}

// generateActors draws a sequence of rounds rounds (drawSteps). Calls mostly name assignments
// that are not finished yet, and a run's provider sometimes works until
// its lease ends, or just before or after. With overtake, about one step
// in three is overtaken by the next, which comes from another process,
// mostly names the same actor and half the time makes the same call; a
// run is overtaken before any one of its transactions, and its overtaker
// often comes at the minute its lease ends.
func generateActors(t *rapid.T, lease int64, overtake bool, rounds int) actorCase {
	c := actorCase{lease: lease}
	am := newActorModel(lease)
	span := max(lease, 5)
	var now int64
	noop := func(int) {}
	var held []actorStep // an overtaken step, applied to the model after its overtaker
	var heldTok model.Token
	drawSteps(t, rounds, func(t *rapid.T) {
		now = drawTime(t, now, am.leaseEnds(), span)
		s := actorStep{at: now, process: choose(t, "process", processNames...)}
		n := below(t, "call", 20)
		if len(held) > 0 {
			others := slices.DeleteFunc(slices.Clone(processNames), func(p string) bool { return p == held[0].process })
			s.process = choose(t, "overtaking process", others...)
			if chance(t, "same call", 1, 2) {
				n = map[string]int{"AcquireLease": 0, "ReleaseLease": 5, "AcquireAttempt": 8, "Run": 13}[held[0].op]
			}
		}
		actorName := choose(t, "actor", actorNames...)
		if len(held) > 0 && !chance(t, "overtaker on another actor", 1, 4) {
			actorName = held[0].leaseActor()
		}
		if len(held) > 0 && held[0].op == "Run" && held[0].overtaken > 1 {
			// Inside a run, after its lease: another process on the same
			// actor, mostly at the minute the run's lease ends.
			actorName = held[0].leaseActor()
			s.at = held[0].at + lease - int64(choose(t, "before the lease ends", 0, 0, 1, 2, 3)/2)
		}
		switch {
		case n < 5:
			s.op, s.id = "AcquireLease", actorName
		case n < 8:
			s.op, s.id = "ReleaseLease", actorName
		case n < 13:
			s.op, s.id = "AcquireAttempt", am.drawAssignment(t, actorName)
		default:
			s.op, s.id, s.result = "Run", am.drawAssignment(t, actorName), choose(t, "result", runResults...)
			s.stall = choose(t, "stall", 0, 0, 0, 1, lease-1, lease, lease+1)
		}
		if len(held) > 0 && held[0].op != "AcquireLease" && held[0].op != "ReleaseLease" &&
			s.op != "AcquireLease" && s.op != "ReleaseLease" && !chance(t, "overtaker on another assignment", 1, 4) {
			s.id = held[0].id
		}
		if (s.op == "AcquireAttempt" || s.op == "Run") && chance(t, "unknown assignment", 1, 10) {
			s.id = choose(t, "unknown assignment", unknownAssignments...)
		}
		if s.op == "ReleaseLease" || s.op == "AcquireAttempt" {
			s.lease = choose(t, "lease token", latest, latest, latest, earlier, other, none, never)
		}
		if overtake && len(held) == 0 && chance(t, "overtaken", 1, 3) {
			s.overtaken = 1
			if s.op == "Run" {
				s.overtaken = choose(t, "overtaken before transaction", 1, 2, 3, 3, 4, 4, 5)
			}
			c.steps = append(c.steps, s)
			held, heldTok = []actorStep{s}, am.presented(s)
			return
		}
		c.steps = append(c.steps, s)
		am.apply(s, am.presented(s), noop)
		if len(held) > 0 {
			am.apply(held[0], heldTok, noop)
			held = nil
		}
		now = max(now, s.at)
	})
	return c
}

// drawAssignment draws an assignment of actorName, three times in four
// one that is not finished yet, if it has one.
func (am *actorModel) drawAssignment(t *rapid.T, actorName string) string {
	var mine, open []string
	for _, a := range assignments {
		if a.actor != actorName {
			continue
		}
		mine = append(mine, a.id)
		if asg, _ := am.m.Assignment(a.id); !asg.State.Terminal() {
			open = append(open, a.id)
		}
	}
	if len(open) > 0 && !chance(t, "finished assignment", 1, 4) {
		return choose(t, "open assignment", open...)
	}
	return choose(t, "assignment", mine...)
}

// sayActor describes an outcome of op for a person.
func sayActor(op string, o actorOutcome, toks *tokens) string {
	var b strings.Builder
	switch {
	case o.Err != "":
		return "error: " + o.Err
	case o.NotFound:
		b.WriteString("not found")
	case o.Refused == actor.ActorLeaseHeld:
		fmt.Fprintf(&b, "refused %s by %s", o.Refused, quoteName(o.Holder))
	case o.Refused != "":
		b.WriteString("refused " + string(o.Refused))
	case op == "AcquireLease":
		fmt.Fprintf(&b, "lease %s until %d", toks.say(o.Token), o.ExpiresAt)
	case op == "AcquireAttempt":
		b.WriteString("attempt " + toks.say(o.Token))
	case op == "ReleaseLease":
		b.WriteString("released")
	}
	if op != "Run" {
		return b.String()
	}
	if b.Len() > 0 {
		b.WriteString("; ")
	}
	if o.Token != 0 {
		fmt.Fprintf(&b, "lease %s, ", toks.say(o.Token))
	}
	if o.Attempt != 0 {
		fmt.Fprintf(&b, "attempt %s, ", toks.say(o.Attempt))
	}
	fmt.Fprintf(&b, "ended %s", o.State)
	return b.String()
}
