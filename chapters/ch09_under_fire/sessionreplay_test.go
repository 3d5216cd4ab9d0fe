package underfire

// This file runs a session sequence against the real session store (a
// fresh SQLite file, each host on one of a few processes' connection
// pools, a logical clock) and the model side by side, and stops at the
// first step where they disagree: about the answer, the session's
// committed row, or its completions.

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// sessionBench is the real side of one run.
type sessionBench struct {
	ledgerDir
	leases session.Leases
	first  *sqlitedb.DB
	stores [processes]*session.Store
}

// sessionFile is the session ledger's file in the run's directory.
const sessionFile = "sessions.db"

func newSessionBench(tb testing.TB, leases session.Leases) *sessionBench {
	tb.Helper()
	b := &sessionBench{ledgerDir: newLedgerDir(tb), leases: leases}
	b.first = b.open(sessionFile)
	if err := session.CreateSchema(b.ctx, b.first); err != nil {
		tb.Fatalf("create session schema: %v", err)
	}
	return b
}

// store returns the session store host calls through, shared as
// mailboxBench.box shares mailboxes.
func (b *sessionBench) store(host string) *session.Store {
	p := process(host, plainHosts, oddHosts)
	if b.stores[p] == nil {
		b.stores[p] = session.Open(b.open(sessionFile), b.clock, b.leases)
	}
	return b.stores[p]
}

// replaySession runs c's steps on a fresh ledger and on the model.
func replaySession(tb testing.TB, c sessionCase) (int, *disagreement) {
	tb.Helper()
	bench := newSessionBench(tb, c.leases)
	defer bench.close()
	sm := &sessionModel{m: model.NewSessions(c.leases)}
	lines, d := replaySteps(c.steps, func(s sessionStep) (string, string) { return sessionStepBoth(bench, sm, s) })
	if d != nil {
		return len(lines), d
	}
	return len(c.steps), nil
}

// sessionStepBoth runs s on both sides and returns its printed line and,
// if they disagreed, what about.
func sessionStepBoth(b *sessionBench, sm *sessionModel, s sessionStep) (line, what string) {
	b.clock.Set(s.at)
	inc := sm.presented(s)
	want := sm.apply(s)
	st := b.store(s.host)
	var got sessionOutcome
	var err error
	switch s.op {
	case "Claim":
		var c session.Claim
		c, err = st.Claim(b.ctx, s.id, s.host)
		got.Incarnation, got.ExpiresAt, got.Renewed = c.Incarnation, c.ExpiresAt, c.Renewed
	case "RenewHost":
		got.HostLease, err = st.RenewHost(b.ctx, s.host)
	case "Finish":
		err = st.FinishSession(b.ctx, session.Claim{Session: s.id, Host: s.host, Incarnation: inc}, s.result())
	}
	var r *session.Refusal
	switch {
	case errors.As(err, &r):
		got.Refused, got.Current = r.Reason, model.Session{Host: r.Current.Host, Incarnation: r.Current.Incarnation, ExpiresAt: r.Current.LeaseExpiresAt}
	case errors.Is(err, session.ErrNoHost):
		got.NoHost = true
	case err != nil:
		got.Err = err.Error()
	}
	want.Current.Held = false // the mechanism's refusal shows the row; who holds it is its host

	line = s.String() + " -> "
	if s.op == "Finish" {
		line += fmt.Sprintf("presented incarnation %d: ", inc)
	}
	line += saySession(s.op, got)
	if got != want {
		return line + "; model: " + saySession(s.op, want), "the answer"
	}
	if s.op == "RenewHost" {
		return line, ""
	}
	if got, want, ok := sessionRowsAgree(b, sm, s.id); !ok {
		return fmt.Sprintf("%s; row: %s; model: %s", line, got, want), s.id + "'s committed row"
	}
	if s.op == "Finish" {
		if got, want, ok := completionsAgree(b, sm, s.id); !ok {
			return fmt.Sprintf("%s; completions: %s; model: %s", line, got, want), s.id + "'s completions"
		}
	}
	return line, ""
}

// sessionRowsAgree compares session id's committed row with the model's.
func sessionRowsAgree(b *sessionBench, sm *sessionModel, id string) (got, want string, ok bool) {
	cur, err := session.Open(b.first, b.clock, b.leases).Get(b.ctx, id)
	wantRow, known := sm.m.Session(id)
	switch {
	case !known && errors.Is(err, session.ErrNotFound):
		return "", "", true
	case !known:
		return fmt.Sprintf("%v (%v)", cur, err), "never claimed", false
	case err != nil:
		return "gone (" + err.Error() + ")", sayCurrent(wantRow), false
	}
	gotRow := model.Session{Host: cur.Host, Incarnation: cur.Incarnation, ExpiresAt: cur.LeaseExpiresAt}
	wantRow.Held = false
	return sayCurrent(gotRow), sayCurrent(wantRow), gotRow == wantRow
}

// completionsAgree compares session id's committed completions with the
// model's.
func completionsAgree(b *sessionBench, sm *sessionModel, id string) (got, want string, ok bool) {
	list, err := session.Open(b.first, b.clock, b.leases).Completions(b.ctx, id)
	if err != nil {
		return err.Error(), fmt.Sprint(sm.m.Completions(id)), false
	}
	var gotList []model.Completion
	for _, c := range list {
		gotList = append(gotList, model.Completion{Host: c.Host, Incarnation: c.Incarnation, Result: c.Result, At: c.FinishedAt})
	}
	wantList := sm.m.Completions(id)
	return fmt.Sprintf("%+v", gotList), fmt.Sprintf("%+v", wantList), slices.Equal(gotList, wantList)
}
