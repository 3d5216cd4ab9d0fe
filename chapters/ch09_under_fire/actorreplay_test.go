package underfire

// This file runs an actor sequence against the real actor ledger (a fresh
// SQLite file, one process per name, each on its own connection pool, a
// logical clock) and the model side by side, and stops at the first step
// where they disagree: about the answer, a lease, an assignment, the
// attempts log, or the token counter.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token/tokentest"
)

// actorBench is the real side of one run.
type actorBench struct {
	ledgerDir
	lease int64
	first *sqlitedb.DB // set-up, committed reads, the counter
	procs map[string]*actor.Process
	pools map[string]*pausable
	names map[string]string // a process's identity -> its name in the case
}

// actorFile is the actor ledger's file in the run's directory.
const actorFile = "actors.db"

func newActorBench(tb testing.TB, lease int64) *actorBench {
	tb.Helper()
	b := &actorBench{ledgerDir: newLedgerDir(tb), lease: lease,
		procs: map[string]*actor.Process{}, pools: map[string]*pausable{}, names: map[string]string{}}
	b.first = b.open(actorFile)
	if err := actor.CreateSchema(b.ctx, b.first); err != nil {
		tb.Fatalf("create actor schema: %v", err)
	}
	setup := actor.Open(b.first, b.clock, lease)
	for _, a := range assignments {
		if err := setup.AddAssignment(b.ctx, a.id, a.actor); err != nil {
			tb.Fatalf("add %s: %v", a.id, err)
		}
	}
	return b
}

// process returns the process called name, started the first time it is
// named: its own identity and its own connection pool.
func (b *actorBench) process(name string) (*actor.Process, *pausable) {
	if b.procs[name] == nil {
		b.pools[name] = b.openPausable(actorFile)
		b.procs[name] = actor.Open(b.pools[name].db, b.clock, b.lease)
		b.names[b.procs[name].ID()] = name
	}
	return b.procs[name], b.pools[name]
}

// name returns the case's name for the process whose identity is id.
func (b *actorBench) name(id string) string {
	if n, ok := b.names[id]; ok || id == "" {
		return n
	}
	return "unknown process " + id
}

// replayActors runs c's steps on a fresh ledger and on the model.
func replayActors(tb testing.TB, c actorCase) (int, *disagreement) {
	tb.Helper()
	bench := newActorBench(tb, c.lease)
	defer bench.close()
	am := newActorModel(c.lease)
	toks := newTokens()
	_, ran, d := replaySteps(c.steps, func(rest []actorStep) (int, []string, string) { return runActorSteps(bench, am, toks, rest) })
	if d != nil {
		return ran, d
	}
	return len(c.steps), nil
}

// runActorSteps runs steps[0] on both sides and, if it is overtaken by
// another process's step, that step inside its pause. It returns how many
// steps ran, their printed lines, and what the first disagreement was
// about ("" if none).
//
// Unlike the other replays, a run can be overtaken before any of its
// transactions, after it already took its lease or its attempt. So the
// model goes first, for both steps, in the order their transactions
// commit; then the mechanism, the overtaker inside the pause; then both
// answers are judged, binding each new token in the order the counter
// handed them out; and the ledger is compared once both have run. A step
// that overtakes another is not itself overtaken.
func runActorSteps(b *actorBench, am *actorModel, toks *tokens, steps []actorStep) (n int, lines []string, what string) {
	group := steps[:1]
	if steps[0].overtaken > 0 && len(steps) > 1 && steps[1].process != steps[0].process {
		group = steps[:2]
	}
	wants := make([]actorOutcome, len(group))
	presented := make([]model.Token, len(group))
	presented[0] = am.presented(group[0])
	overtaken := false
	wants[0] = am.apply(group[0], presented[0], func(k int) {
		if len(group) == 2 && k == group[0].overtaken {
			presented[1] = am.presented(group[1])
			wants[1] = am.apply(group[1], presented[1], func(int) {})
			overtaken = true
		}
	})
	if len(group) == 2 && !overtaken { // the call had fewer transactions: the overtaker came after it
		presented[1] = am.presented(group[1])
		wants[1] = am.apply(group[1], presented[1], func(int) {})
	}

	raws := make([]actorRaw, len(group))
	var during func()
	if len(group) == 2 {
		during = func() { raws[1] = actorCall(b, toks, group[1], presented[1], nil) }
	}
	raws[0] = actorCall(b, toks, group[0], presented[0], during)
	bindInOrder(toks, wants, raws)

	for i, s := range group {
		got := raws[i].outcome(toks)
		line := s.String() + " -> "
		if i == 0 && len(group) == 2 {
			line += fmt.Sprintf("after the next step (before transaction %d), ", s.overtaken)
		}
		if s.lease != "" {
			line += "presented " + toks.say(presented[i]) + ": "
		}
		line += sayActor(s.op, got, toks)
		if got != wants[i] && what == "" {
			line += "; model: " + sayActor(s.op, wants[i], toks)
			what = "the answer"
		}
		lines = append(lines, line)
	}
	if what != "" {
		return len(group), lines, what
	}
	last, what := actorLedgerAgrees(b, am, toks, lines[len(lines)-1])
	lines[len(lines)-1] = last
	return len(group), lines, what
}

// actorRaw is what one call returned, before its tokens are translated.
type actorRaw struct {
	op        string
	outcome0  actorOutcome // the refusal or error, in the model's terms
	lease     int64        // the lease token handed out (AcquireLease, Run)
	attempt   int64        // the attempt token handed out (AcquireAttempt, Run)
	expiresAt int64
	state     actor.State // Run: the last state the run saw
}

// outcome translates r into the model's terms; its tokens must be bound
// already (bindInOrder).
func (r actorRaw) outcome(toks *tokens) actorOutcome {
	o := r.outcome0
	switch r.op {
	case "AcquireLease":
		o.Token, o.ExpiresAt = token(toks, r.lease), r.expiresAt
	case "AcquireAttempt":
		o.Token = token(toks, r.attempt)
	case "Run":
		o.Token, o.Attempt, o.State = token(toks, r.lease), token(toks, r.attempt), r.state
	}
	return o
}

// token is the model's token for the real number r; 0 for none.
func token(toks *tokens, r int64) model.Token {
	if r == 0 {
		return 0
	}
	return toks.toModel(r)
}

// bindInOrder binds every token the calls were handed to the model's
// token for it, in the order the counter handed them out: a new
// generation on both sides becomes one token. A number that comes out of
// order stays unbound, and its answer disagrees.
func bindInOrder(toks *tokens, wants []actorOutcome, raws []actorRaw) {
	type pair struct {
		m model.Token
		r int64
	}
	var pairs []pair
	for i, r := range raws {
		switch r.op {
		case "AcquireLease":
			pairs = append(pairs, pair{wants[i].Token, r.lease})
		case "AcquireAttempt":
			pairs = append(pairs, pair{wants[i].Token, r.attempt})
		case "Run":
			pairs = append(pairs, pair{wants[i].Token, r.lease}, pair{wants[i].Attempt, r.attempt})
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int { return int(x.r - y.r) })
	for _, p := range pairs {
		if p.r != 0 && p.m > 0 && toks.toModel(p.r) < 0 {
			toks.bindNew(p.m, p.r)
		}
	}
}

// actorCall makes s's call on the real side, presenting the lease
// presented. A non-nil during runs just before the s.overtaken-th
// transaction of the call, or after the call if it had fewer.
//
// A step that overtakes a run after the run took its lease presents that
// lease as a number not bound yet: nothing, to the mechanism. The lease is
// the run's, never the overtaker's, so either way the mechanism refuses it
// for the same reason.
func actorCall(b *actorBench, toks *tokens, s actorStep, presented model.Token, during func()) actorRaw {
	b.clock.Set(s.at)
	p, pool := b.process(s.process)
	after := func() {}
	if during != nil {
		after = pool.holdAt(s.overtaken, func() {
			now := b.clock.Now() // s.at, or later once the provider has worked
			during()
			b.clock.Set(now)
		})
	}
	real := actor.Lease{Actor: s.leaseActor(), Holder: p.ID(), Token: toks.toReal(presented)}
	r := actorRaw{op: s.op}
	var err error
	switch s.op {
	case "AcquireLease":
		var l actor.Lease
		l, err = p.AcquireLease(b.ctx, s.id)
		r.lease, r.expiresAt = l.Token, l.ExpiresAt
	case "ReleaseLease":
		err = p.ReleaseLease(b.ctx, real)
	case "AcquireAttempt":
		var a actor.Attempt
		a, err = p.AcquireAttempt(b.ctx, s.id, real)
		r.attempt = a.Token
	case "Run":
		var run actor.Run
		run, err = p.RunAssignment(b.ctx, s.id, provider(b.clock, s.at+s.stall, s.result))
		r.lease, r.attempt, r.state = run.Lease.Token, run.Attempt.Token, run.State
	}
	after()
	r.outcome0 = actorOutcomeOf(b, err)
	return r
}

// provider works until the clock shows done, then answers result:
// COMPLETED or BLOCKED as they are, FAILED as an error.
func provider(clk *clock.Logical, done int64, result actor.State) actor.Provider {
	return func(context.Context, actor.Assignment) (actor.State, error) {
		clk.Set(done)
		if result == actor.Failed {
			return "", errors.New("the provider failed")
		}
		return result, nil
	}
}

// actorOutcomeOf translates the mechanism's error into the model's terms.
func actorOutcomeOf(b *actorBench, err error) actorOutcome {
	var o actorOutcome
	var r *actor.Refusal
	switch {
	case err == nil:
	case errors.Is(err, actor.ErrNotFound):
		o.NotFound = true
	case errors.As(err, &r):
		o.Refused, o.Holder = r.Reason, b.name(r.Holder)
	default:
		o.Err = err.Error()
	}
	return o
}

// actorLedgerAgrees compares every lease, assignment and attempt, and the
// counter, with the model's, and says what differs on line. It reads each
// table whole, once.
func actorLedgerAgrees(b *actorBench, am *actorModel, toks *tokens, line string) (string, string) {
	leases := map[string]model.ActorLease{}
	b.query(`SELECT actor, COALESCE(holder, ''), COALESCE(token, 0), COALESCE(expires_at, 0) FROM actor_leases`, func(scan func(...any) error) error {
		var a, holder string
		var tok, expires int64
		err := scan(&a, &holder, &tok, &expires)
		leases[a] = model.ActorLease{Holder: b.name(holder), Token: toks.toModel(tok), ExpiresAt: expires}
		return err
	})
	for _, a := range actorNames {
		got, found := leases[a]
		if want, known := am.m.Lease(a); got != want || found != known {
			return fmt.Sprintf("%s; %s's lease: %+v; model: %+v", line, a, got, want), a + "'s lease"
		}
	}
	var rows int
	var badRow, badID string
	b.query(`SELECT id, actor, state, attempt_id IS NOT NULL, COALESCE(attempt_token, 0), COALESCE(lease_token, 0)
		FROM assignments ORDER BY id`, func(scan func(...any) error) error {
		var id, state string
		var hasID bool
		var attempt, lease int64
		var got model.Assignment
		err := scan(&id, &got.Actor, &state, &hasID, &attempt, &lease)
		got.State, got.Attempt, got.LeaseToken = actor.State(state), toks.toModel(attempt), toks.toModel(lease)
		want, known := am.m.Assignment(id)
		if badID == "" && (!known || got != want || hasID != (want.Attempt != 0)) {
			badRow, badID = fmt.Sprintf("%s; %s: %+v, an attempt id %v; model: %+v", line, id, got, hasID, want), id
		}
		rows++
		return err
	})
	if badID != "" {
		return badRow, badID + "'s row"
	}
	if rows != len(assignments) {
		return fmt.Sprintf("%s; %d assignments; model: %d", line, rows, len(assignments)), "the assignments"
	}
	var got []model.AttemptLine
	b.query(`SELECT assignment, actor, process, lease_token, token, started_at, COALESCE(outcome, '')
		FROM execution_attempts ORDER BY token`, func(scan func(...any) error) error {
		var r model.AttemptLine
		var process, outcome string
		var lease, tok int64
		err := scan(&r.Assignment, &r.Actor, &process, &lease, &tok, &r.StartedAt, &outcome)
		r.Process, r.LeaseToken, r.Token, r.Outcome = b.name(process), toks.toModel(lease), toks.toModel(tok), actor.State(outcome)
		got = append(got, r)
		return err
	})
	if want := am.m.Attempts(); !slices.Equal(got, want) {
		return fmt.Sprintf("%s; attempts log: %+v; model: %+v", line, got, want), "the attempts log"
	}
	if minted, want := tokentest.Minted(b.tb, b.first), toks.toReal(am.m.Minted()); minted != want {
		return fmt.Sprintf("%s; the counter stands at %d; model: at %d, the newest token handed out", line, minted, want), "the token counter"
	}
	return line, ""
}

// query runs a read on the ledger's committed state and hands each row's
// Scan to row, failing the test on any error.
func (b *actorBench) query(q string, row func(scan func(...any) error) error) {
	b.tb.Helper()
	rows, err := b.first.Query(b.ctx, q)
	if err != nil {
		b.tb.Fatalf("read the ledger: %s: %v", q, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			b.tb.Fatalf("read the ledger: %s: %v", q, err)
		}
	}
	if err := rows.Err(); err != nil {
		b.tb.Fatalf("read the ledger: %s: %v", q, err)
	}
}
