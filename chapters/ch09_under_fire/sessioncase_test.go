package underfire

// This file holds the session sequences (chapter 7): hosts claim sessions,
// renew their own host leases and finish runs with the incarnation their
// claim returned. Their steps, their text form, how they are drawn at
// random, and the model's side of running one.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/session"
	"pgregory.net/rapid"
)

// Sessions are created by their first claim, so every id a claim names
// exists from then on; finishes also name one nobody ever claims.
var (
	sessionIDs      = []string{"sess-1", "sess-2"}
	unknownSessions = []string{"sess-404"}
	plainHosts      = []string{"kiosk-a", "kiosk-b", "kiosk-c"}
	oddHosts        = []string{"kiosk-a ", "KIOSK-A", "kiosk-a\x00", "kïosk", ""}
)

// sessionCase is one sequence of steps and the leases the ledger grants.
type sessionCase struct {
	leases session.Leases
	steps  []sessionStep
}

// sessionStep is one host's call at one logical time.
type sessionStep struct {
	at   int64
	host string
	op   string // Claim, RenewHost or Finish
	id   string // "" for RenewHost
	inc  tokenRef
	// overtaken: the next step runs whole just before this call's
	// transaction begins (overtake_test.go).
	overtaken bool
}

func (s sessionStep) String() string {
	var args []string
	if s.id != "" || s.op != "RenewHost" {
		args = append(args, s.id)
	}
	if s.op == "Finish" {
		args = append(args, "incarnation="+string(s.inc))
	}
	if s.overtaken {
		args = append(args, "overtaken")
	}
	return fmt.Sprintf("t=%d %s %s(%s)", s.at, quoteName(s.host), s.op, strings.Join(args, ", "))
}

func (c sessionCase) header() []string {
	return []string{fmt.Sprintf("leases session %d host %d", c.leases.Session, c.leases.Host)}
}

// parseSessionCase reads a case file: a `leases session N host M` line,
// then one step per line as sessionStep.String prints it.
func parseSessionCase(text string) (sessionCase, error) {
	lines := caseLines(text)
	var c sessionCase
	if len(lines) == 0 {
		return c, errors.New("want a first line `leases session N host M`")
	}
	f := strings.Fields(lines[0])
	if len(f) != 5 || f[0] != "leases" || f[1] != "session" || f[3] != "host" {
		return c, fmt.Errorf("%q: want `leases session N host M`", lines[0])
	}
	var err1, err2 error
	c.leases.Session, err1 = strconv.ParseInt(f[2], 10, 64)
	c.leases.Host, err2 = strconv.ParseInt(f[4], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return c, fmt.Errorf("%q: %w", lines[0], err)
	}
	for _, l := range lines[1:] {
		p, err := parseStep(l)
		if err != nil {
			return c, err
		}
		s := sessionStep{at: p.at, host: p.actor, op: p.op, id: p.args[0], inc: tokenRef(p.option("incarnation")),
			overtaken: p.flag("overtaken") || p.args[0] == "overtaken"}
		if s.id == "overtaken" {
			s.id = "" // RenewHost(overtaken): the flag is its only argument
		}
		switch {
		case s.op == "Claim" || s.op == "RenewHost":
		case s.op != "Finish":
			return c, fmt.Errorf("%q: want Claim, RenewHost or Finish", l)
		case !isTokenRef(s.inc):
			return c, fmt.Errorf("%q: want incarnation= one of %v", l, tokenRefs)
		}
		c.steps = append(c.steps, s)
	}
	return c, nil
}

// sessionModel is the model's side of a run: the ledger, and the
// incarnations each host won.
type sessionModel struct {
	m   *model.Sessions
	won []won[int64]
}

// presented returns the incarnation a Finish step presents.
func (sm *sessionModel) presented(s sessionStep) int64 {
	return resolve(s.inc, sm.won, s.host, s.id, neverIssued)
}

// result is what a Finish step records: who finished, and when.
func (s sessionStep) result() string { return fmt.Sprintf("%s@%d", s.host, s.at) }

// sessionOutcome is an answer in the model's terms. HostLease is what
// RenewHost returned; Err an error that is neither a refusal nor
// expected at all.
type sessionOutcome struct {
	model.SessionAnswer
	HostLease int64
	Err       string
}

// apply runs s on the model and returns its answer; a Finish presents
// inc, the incarnation sm.presented said when its call began.
func (sm *sessionModel) apply(s sessionStep, inc int64) sessionOutcome {
	switch s.op {
	case "Claim":
		a := sm.m.Claim(s.id, s.host, s.at)
		if a.Refused == "" && !a.Renewed {
			sm.won = append(sm.won, won[int64]{s.host, s.id, a.Incarnation})
		}
		return sessionOutcome{SessionAnswer: a}
	case "RenewHost":
		ends, ok := sm.m.RenewHost(s.host, s.at)
		return sessionOutcome{HostLease: ends, SessionAnswer: model.SessionAnswer{NoHost: !ok}}
	}
	return sessionOutcome{SessionAnswer: sm.m.Finish(s.id, s.host, inc, s.result(), s.at)}
}

// leaseEnds returns when the model's live session leases and every host
// lease end.
func (sm *sessionModel) leaseEnds() []int64 {
	var ends []int64
	for _, id := range sessionIDs {
		if cur, _ := sm.m.Session(id); cur.Held {
			ends = append(ends, cur.ExpiresAt)
		}
	}
	for _, h := range slices.Concat(plainHosts, oddHosts) {
		if at, ok := sm.m.HostLease(h); ok {
			ends = append(ends, at)
		}
	}
	return ends
}

// generateSession draws a sequence of rounds rounds (drawSteps). With overtake, about one
// step in three is overtaken by the next, which mostly names the same
// session and half the time makes the same call.
func generateSession(t *rapid.T, leases session.Leases, overtake bool, rounds int) sessionCase {
	c := sessionCase{leases: leases}
	sm := &sessionModel{m: model.NewSessions(leases)}
	span := max(leases.Session, leases.Host, 5)
	var now int64
	var held []sessionStep // an overtaken step, applied to the model after its overtaker
	var heldInc int64
	drawSteps(t, rounds, func(t *rapid.T) {
		now = drawTime(t, now, sm.leaseEnds(), span)
		s := sessionStep{at: now, host: choose(t, "host", plainHosts...), id: choose(t, "session", sessionIDs...)}
		if len(held) > 0 && held[0].id != "" && !chance(t, "overtaker on another session", 1, 4) {
			s.id = held[0].id
		}
		if chance(t, "odd host", 3, 10) {
			s.host = choose(t, "odd host", oddHosts...)
		}
		n := below(t, "call", 20)
		if len(held) > 0 && chance(t, "same call", 1, 2) {
			// The same call twice at once: the race the transaction must settle.
			n = map[string]int{"Claim": 0, "RenewHost": 7, "Finish": 11}[held[0].op]
		}
		switch {
		case n < 7:
			s.op = "Claim"
		case n < 11:
			s.op, s.id = "RenewHost", ""
		default:
			s.op = "Finish"
			s.inc = choose(t, "incarnation", latest, latest, latest, latest, latest, earlier, other, none, never)
			if chance(t, "unknown session", 1, 10) {
				s.id = choose(t, "unknown session", unknownSessions...)
			}
		}
		if cur, _ := sm.m.Session(s.id); chance(t, "impostor", 1, 10) && cur.Held {
			// An impostor: a name like the holder's, presenting the holder's incarnation.
			s.host, s.op, s.inc = lookAlike(t, cur.Host), "Finish", other
		}
		if overtake && len(held) == 0 && chance(t, "overtaken", 1, 3) {
			s.overtaken = true
			c.steps = append(c.steps, s)
			held, heldInc = []sessionStep{s}, sm.presented(s)
			return
		}
		c.steps = append(c.steps, s)
		sm.apply(s, sm.presented(s))
		if len(held) > 0 {
			sm.apply(held[0], heldInc)
			held = nil
		}
	})
	return c
}

// saySession describes an outcome of op for a person.
func saySession(op string, o sessionOutcome) string {
	switch {
	case o.Err != "":
		return "error: " + o.Err
	case o.NoHost:
		return "error: a host needs a name"
	case o.Refused != "":
		return fmt.Sprintf("refused %s (%s)", o.Refused, sayCurrent(o.Current))
	case op == "RenewHost":
		return fmt.Sprintf("host lease until %d", o.HostLease)
	case op == "Finish":
		return "finished, released"
	case o.Renewed:
		return fmt.Sprintf("incarnation %d renewed, lease until %d", o.Incarnation, o.ExpiresAt)
	}
	return fmt.Sprintf("incarnation %d, lease until %d", o.Incarnation, o.ExpiresAt)
}

// sayCurrent describes a session row.
func sayCurrent(s model.Session) string {
	if s.Host == "" && s.ExpiresAt == 0 {
		return fmt.Sprintf("nobody holds it, incarnation %d", s.Incarnation)
	}
	return fmt.Sprintf("held by %s, incarnation %d, lease until %d", quoteName(s.Host), s.Incarnation, s.ExpiresAt)
}
