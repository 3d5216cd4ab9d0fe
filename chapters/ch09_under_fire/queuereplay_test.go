package underfire

// This file runs a queue-and-destination sequence against the real queue
// and gate (two fresh SQLite files, each worker with its own connection
// pools, a logical clock) and the models side by side, and stops at the
// first step where they disagree: about the answer, the job's committed
// row, the fence counter, the destination's committed state or its
// arrivals log.

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token/tokentest"
)

// queueBench is the real side of one run.
type queueBench struct {
	ledgerDir
	lease    int64
	contract gate.Contract
	jobs     *sqlitedb.DB // set-up, committed reads, the counter
	dest     *sqlitedb.DB // set-up and committed reads; no gate writes on it
	workers  map[slot]worker
	repair   func() // set while the arrivals log is broken
	depth    int    // how many overtaken calls the step now running is inside
}

// worker is what one worker process would have: its own connections to
// the queue and to the destination.
type worker struct {
	q      *queue.Queue
	g      *gate.Gate
	qp, gp *pausable // the pools q and g call through
}

// pool returns the pool op calls through: the destination's for a call,
// the queue's for a claim or a finish, none for the operator's steps.
func (w worker) pool(op string) *pausable {
	switch op {
	case "Call":
		return w.gp
	case "Claim", "Finish":
		return w.qp
	}
	return nil
}

func newQueueBench(tb testing.TB, lease int64, contract gate.Contract) *queueBench {
	tb.Helper()
	b := &queueBench{ledgerDir: newLedgerDir(tb), lease: lease, contract: contract, workers: map[slot]worker{}}
	b.jobs, b.dest = b.open("queue.db"), b.open("destination.db")
	if err := queue.CreateSchema(b.ctx, b.jobs); err != nil {
		tb.Fatalf("create queue schema: %v", err)
	}
	if err := gate.CreateSchema(b.ctx, b.dest); err != nil {
		tb.Fatalf("create destination schema: %v", err)
	}
	setup := queue.Open(b.jobs, b.clock, lease)
	for _, j := range jobs {
		if err := setup.Add(b.ctx, j.id, j.operation, j.units); err != nil {
			tb.Fatalf("add %s: %v", j.id, err)
		}
	}
	return b
}

// worker returns the connections a worker calls through: those of one of
// processes worker processes, shared as mailboxBench.box shares them.
func (b *queueBench) worker(name string) worker {
	at := slot{process(name, plainWorkers, oddWorkers), b.depth}
	if _, ok := b.workers[at]; !ok {
		qp, gp := b.openPausable("queue.db"), b.openPausable("destination.db")
		b.workers[at] = worker{q: queue.Open(qp.db, b.clock, b.lease), g: gate.Open(gp.db, b.contract), qp: qp, gp: gp}
	}
	return b.workers[at]
}

// replayQueue runs c's steps on fresh files and on the models. It returns
// how many steps ran and, if they disagreed, the lines up to the step
// where they did; nil if they agreed throughout.
func replayQueue(tb testing.TB, c queueCase) (int, *disagreement) {
	tb.Helper()
	bench := newQueueBench(tb, c.lease, c.contract)
	defer bench.close()
	qm := newQueueModel(c.lease, c.contract)
	toks := newTokens()
	lines, ran, d := replaySteps(c.steps, func(rest []queueStep) (int, []string, string) { return runQueueSteps(bench, qm, toks, rest) })
	if d != nil {
		return ran, d
	}
	for _, j := range jobs {
		if got, want, ok := jobsAgree(bench, qm, toks, j.id); !ok {
			lines = append(lines, fmt.Sprintf("# after the last step, %s's row: %s; model: %s", j.id, got, want))
			return len(c.steps), &disagreement{lines: lines, what: j.id + "'s committed row"}
		}
	}
	return len(c.steps), nil
}

// runQueueSteps runs steps[0] on both sides and, if it is overtaken, the
// steps that overtake it, inside its pause, as runMailboxSteps does.
func runQueueSteps(b *queueBench, qm *queueModel, toks *tokens, steps []queueStep) (n int, lines []string, what string) {
	s := steps[0]
	if !s.overtaken || len(steps) == 1 {
		line, what := queueStepBoth(b, qm, toks, s, nil)
		return 1, []string{line}, what
	}
	var inner []string
	var innerWhat string
	line, what := queueStepBoth(b, qm, toks, s, func() {
		b.depth++
		n, inner, innerWhat = runQueueSteps(b, qm, toks, steps[1:])
		b.depth--
	})
	if innerWhat != "" {
		what = innerWhat // the overtaker's transaction came first
	}
	return 1 + n, append([]string{line}, inner...), what
}

// queueStepBoth runs s on both sides and returns its printed line and, if
// they disagreed, what about. A non-nil overtaker runs just before s's
// transaction begins (or after s, if it began none), and is applied to
// the models first.
func queueStepBoth(b *queueBench, qm *queueModel, toks *tokens, s queueStep, overtaker func()) (line, what string) {
	b.clock.Set(s.at)
	presented := qm.presented(s)
	var req model.Request
	if s.op == "Call" {
		req = qm.request(s)
	}
	w := b.worker(s.worker)
	after := func() {}
	if overtaker != nil {
		resume := func() {
			overtaker()
			b.clock.Set(s.at)
		}
		after = resume
		if p := w.pool(s.op); p != nil {
			after = p.hold(resume)
		}
	}
	var lease queue.Lease
	var out gate.Outcome
	var err error
	switch s.op {
	case "Claim":
		lease, err = w.q.Claim(b.ctx, s.job, s.worker)
	case "Finish":
		err = w.q.Finish(b.ctx, s.job, s.worker, toks.toReal(presented))
	case "BreakLog":
		if b.repair == nil {
			b.repair = gatetest.BreakArrivalsLogOf(b.tb, b.dest)
		}
	case "RepairLog":
		if b.repair != nil {
			b.repair()
			b.repair = nil
		}
	case "Call":
		out, err = w.g.Apply(b.ctx, gate.Request{Fence: toks.toReal(req.Fence), Operation: req.Operation,
			Units: req.Units, FailAfterEffect: req.Fail})
	}
	after()
	want := qm.apply(s, presented, req)
	var got queueOutcome
	var callErr error // the call's error, shown but not compared: the model knows kinds, not wordings
	switch s.op {
	case "Claim":
		got = queueOutcomeOf(err)
		if err == nil {
			got.Fence, got.ExpiresAt = toks.toModel(lease.Fence), lease.ExpiresAt
			if got.Fence < 0 && want.Refused == "" && toks.bindNew(want.Fence, lease.Fence) {
				got.Fence = want.Fence // a new generation on both sides
			}
		}
	case "Finish":
		got = queueOutcomeOf(err)
	case "Call":
		got = queueOutcome{Result: out.Result}
		switch {
		case errors.Is(err, gate.ErrNotLogged):
			got.NotLogged = true
		case err != nil:
			got.Failed, callErr = true, err
		}
		if out.UncommittedView != nil {
			got.Seen = viewOf(*out.UncommittedView, toks)
		}
	}

	line = s.String() + " -> "
	if overtaker != nil {
		line += "after the next step, "
	}
	if s.op == "Call" || s.op == "Finish" {
		line += "presented " + toks.sayAs("fence", presented) + ": "
	}
	line += sayQueue(s.op, got, toks)
	if callErr != nil {
		line += fmt.Sprintf(" (%v)", callErr)
	}
	if got != want {
		return line + "; model: " + sayQueue(s.op, want, toks), "the answer"
	}
	switch s.op {
	case "Call":
		return destinationAgrees(b, qm, toks, line)
	case "BreakLog", "RepairLog":
		return line, ""
	}
	if got, want, ok := jobsAgree(b, qm, toks, s.job); !ok {
		return fmt.Sprintf("%s; row: %s; model: %s", line, got, want), s.job + "'s committed row"
	}
	minted := tokentest.Minted(b.tb, b.jobs)
	if wantMinted := toks.toReal(qm.q.Minted()); minted != wantMinted {
		return fmt.Sprintf("%s; the counter stands at %d; model: at %d, the newest fence handed out",
			line, minted, wantMinted), "the fence counter"
	}
	return line, ""
}

// queueOutcomeOf translates the queue's error into the model's terms.
func queueOutcomeOf(err error) queueOutcome {
	var o queueOutcome
	var r *queue.Refusal
	switch {
	case err == nil:
	case errors.Is(err, queue.ErrNotFound):
		o.NotFound = true
	case errors.As(err, &r):
		o.Refused, o.Holder = r.Reason, r.Holder
	default:
		o.Err = err.Error()
	}
	return o
}

// viewOf translates a destination state into the model's terms.
func viewOf(s gate.State, toks *tokens) model.View {
	return model.View{Mark: toks.toModel(s.HighestFence), Units: s.Units, Receipts: int(s.Receipts)}
}

// jobsAgree compares job id's committed row with the model's. A job the
// model does not know must not exist in the queue either.
func jobsAgree(b *queueBench, qm *queueModel, toks *tokens, id string) (got, want string, ok bool) {
	j, err := queue.Open(b.jobs, b.clock, b.lease).Get(b.ctx, id)
	wantJob, known := qm.q.Job(id)
	switch {
	case !known && errors.Is(err, queue.ErrNotFound):
		return "", "", true
	case !known:
		return fmt.Sprintf("%v (%v)", j, err), "no such job", false
	case err != nil:
		return "gone (" + err.Error() + ")", sayJob(wantJob, toks), false
	}
	gotJob := model.Job{Operation: j.Operation, Units: j.Units, State: j.State, Worker: j.Worker,
		Fence: toks.toModel(j.Fence), ExpiresAt: j.ExpiresAt, Claims: j.Claims}
	return sayJob(gotJob, toks), sayJob(wantJob, toks), gotJob == wantJob
}

// destinationAgrees compares the destination's committed state and its
// arrivals log with the model's after a call.
func destinationAgrees(b *queueBench, qm *queueModel, toks *tokens, line string) (string, string) {
	g := gate.Open(b.dest, gate.None) // reads only
	st, err := g.State(b.ctx)
	if err != nil {
		return line + "; reading the destination: " + err.Error(), "the destination's committed state"
	}
	if got, want := viewOf(st, toks), qm.g.State(); got != want {
		return fmt.Sprintf("%s; committed: %s; model: %s", line, sayView(got, toks), sayView(want, toks)),
			"the destination's committed state"
	}
	log, err := g.Arrivals(b.ctx)
	if err != nil {
		return line + "; reading the arrivals log: " + err.Error(), "the arrivals log"
	}
	got := make([]model.Arrival, len(log))
	for i, a := range log {
		got[i] = model.Arrival{Request: model.Request{Fence: toks.toModel(a.Fence), Operation: a.Operation, Units: a.Units}, Result: a.Result}
	}
	want := slices.Clone(qm.g.Arrivals())
	for i := range want {
		want[i].Fail = false // the log does not record which calls asked to fail
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("%s; arrivals log: %s; model: %s", line, sayArrivals(got, toks), sayArrivals(want, toks)),
			"the arrivals log"
	}
	return line, ""
}

// sayArrivals describes the end of an arrivals log: its length and last
// line, which is where a difference shows first.
func sayArrivals(log []model.Arrival, toks *tokens) string {
	if len(log) == 0 {
		return "empty"
	}
	a := log[len(log)-1]
	return fmt.Sprintf("%d lines, the last %s %s +%d %s", len(log), toks.sayAs("fence", a.Fence), a.Operation, a.Units, a.Result)
}
