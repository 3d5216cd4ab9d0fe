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
	stores map[slot]*session.Store
	pools  map[slot]*pausable
	depth  int // how many overtaken calls the step now running is inside
}

// sessionFile is the session ledger's file in the run's directory.
const sessionFile = "sessions.db"

func newSessionBench(tb testing.TB, leases session.Leases) *sessionBench {
	tb.Helper()
	b := &sessionBench{ledgerDir: newLedgerDir(tb), leases: leases, stores: map[slot]*session.Store{}, pools: map[slot]*pausable{}}
	b.first = b.open(sessionFile)
	if err := session.CreateSchema(b.ctx, b.first); err != nil {
		tb.Fatalf("create session schema: %v", err)
	}
	return b
}

// store returns the session store host calls through, and its pool,
// shared as mailboxBench.box shares mailboxes.
func (b *sessionBench) store(host string) (*session.Store, *pausable) {
	at := slot{process(host, plainHosts, oddHosts), b.depth}
	if b.stores[at] == nil {
		b.pools[at] = b.openPausable(sessionFile)
		b.stores[at] = session.Open(b.pools[at].db, b.clock, b.leases)
	}
	return b.stores[at], b.pools[at]
}

// replaySession runs c's steps on a fresh ledger and on the model.
func replaySession(tb testing.TB, c sessionCase) (int, *disagreement) {
	tb.Helper()
	bench := newSessionBench(tb, c.leases)
	defer bench.close()
	sm := &sessionModel{m: model.NewSessions(c.leases)}
	_, ran, d := replaySteps(c.steps, func(rest []sessionStep) (int, []string, string) { return runSessionSteps(bench, sm, rest) })
	if d != nil {
		return ran, d
	}
	return len(c.steps), nil
}

// runSessionSteps runs steps[0] on both sides and, if it is overtaken,
// the steps that overtake it, inside its pause, as runMailboxSteps does.
func runSessionSteps(b *sessionBench, sm *sessionModel, steps []sessionStep) (n int, lines []string, what string) {
	s := steps[0]
	if !s.overtaken || len(steps) == 1 {
		line, what := sessionStepBoth(b, sm, s, nil)
		return 1, []string{line}, what
	}
	var inner []string
	var innerWhat string
	line, what := sessionStepBoth(b, sm, s, func() {
		b.depth++
		n, inner, innerWhat = runSessionSteps(b, sm, steps[1:])
		b.depth--
	})
	if innerWhat != "" {
		what = innerWhat // the overtaker's transaction came first
	}
	return 1 + n, append([]string{line}, inner...), what
}

// sessionStepBoth runs s on both sides and returns its printed line and,
// if they disagreed, what about. A non-nil overtaker runs just before s's
// transaction begins (or after s, if it began none), and is applied to
// the model first.
func sessionStepBoth(b *sessionBench, sm *sessionModel, s sessionStep, overtaker func()) (line, what string) {
	b.clock.Set(s.at)
	inc := sm.presented(s)
	st, pool := b.store(s.host)
	after := func() {}
	if overtaker != nil {
		after = pool.hold(func() {
			overtaker()
			b.clock.Set(s.at)
		})
	}
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
	after()
	want := sm.apply(s, inc)
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
	if overtaker != nil {
		line += "after the next step, "
	}
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
