package underfire

// This file holds the queue-and-destination sequences: workers claim jobs,
// call the destination with the fence of their lease, and finish. Their
// steps, their text form, how they are drawn at random, and the model's
// side of running one.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"pgregory.net/rapid"
)

// The queue every sequence starts from: chapter 5's job and three more,
// each asking for one operation on the destination's counter. Steps also
// name jobs that do not exist.
var (
	jobs = []struct {
		id, operation string
		units         int64
	}{
		{"JOB-1", "OP-1", 4},
		{"JOB-2", "OP-2", 3},
		{"JOB-3", "OP-3", 2},
		{"JOB-4", "OP-4", 1},
	}
	unknownJobs = []string{"JOB-404", "job-1"}
	// The steps that break and repair the arrivals log name these.
	operator, arrivals = "operator", "arrivals"
	plainWorkers       = []string{"A", "B", "C"}
	oddWorkers         = []string{"", "A ", "a", "A\x00", "Ä"}
)

// queueCase is one sequence of steps, with the queue's lease length and
// the contract the destination admits calls by.
type queueCase struct {
	lease    int64
	contract gate.Contract
	steps    []queueStep
}

// queueStep is one worker's call at one logical time: a claim, a call to
// the destination for the job's operation, or a finish. Or the operator
// breaking or repairing the destination's arrivals log (chapter 6), with
// worker "operator" and job "arrivals".
type queueStep struct {
	at      int64
	worker  string
	op      string // Claim, Call, Finish, BreakLog or RepairLog
	job     string
	fence   tokenRef // the fence Call and Finish present
	changed bool     // Call: one unit more than the job asks for
	fail    bool     // Call: the controlled failure after the effect
	// overtaken: the next step runs whole just before this call's
	// transaction begins (overtake_test.go).
	overtaken bool
}

func (s queueStep) String() string {
	head := fmt.Sprintf("t=%d %s %s(%s", s.at, quoteName(s.worker), s.op, s.job)
	if s.op != "Claim" && s.op != "BreakLog" && s.op != "RepairLog" {
		head += ", fence=" + string(s.fence)
	}
	if s.changed {
		head += ", units+1"
	}
	if s.fail {
		head += ", fail"
	}
	if s.overtaken {
		head += ", overtaken"
	}
	return head + ")"
}

func (c queueCase) header() []string {
	return []string{fmt.Sprintf("lease %d", c.lease), "contract " + string(c.contract)}
}

// parseQueueCase reads a case file: `lease N` and `contract NAME` lines,
// then one step per line as queueStep.String prints it.
func parseQueueCase(text string) (queueCase, error) {
	lines := caseLines(text)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "lease ") || !strings.HasPrefix(lines[1], "contract ") {
		return queueCase{}, errors.New("want the lines `lease N` and `contract NAME` first")
	}
	var c queueCase
	var err error
	if c.lease, err = strconv.ParseInt(strings.TrimPrefix(lines[0], "lease "), 10, 64); err != nil || c.lease <= 0 {
		return queueCase{}, fmt.Errorf("%q: want a positive lease", lines[0])
	}
	if c.contract, err = gate.ParseContract(strings.TrimPrefix(lines[1], "contract ")); err != nil {
		return queueCase{}, err
	}
	for _, l := range lines[2:] {
		p, err := parseStep(l)
		if err != nil {
			return queueCase{}, err
		}
		s := queueStep{at: p.at, worker: p.actor, op: p.op, job: p.args[0],
			fence: tokenRef(p.option("fence")), changed: p.flag("units+1"), fail: p.flag("fail"), overtaken: p.flag("overtaken")}
		switch {
		case s.op == "Claim":
		case s.op == "BreakLog" || s.op == "RepairLog":
			s.worker, s.job = operator, arrivals
		case s.op != "Call" && s.op != "Finish":
			return queueCase{}, fmt.Errorf("%q: want Claim, Call, Finish, BreakLog or RepairLog", l)
		case !isTokenRef(s.fence):
			return queueCase{}, fmt.Errorf("%q: want fence= one of %v", l, tokenRefs)
		case s.op == "Call" && !knownJob(s.job):
			return queueCase{}, fmt.Errorf("%q: a call names the operation of a known job", l)
		}
		c.steps = append(c.steps, s)
	}
	return c, nil
}

func knownJob(id string) bool {
	for _, j := range jobs {
		if j.id == id {
			return true
		}
	}
	return false
}

// queueModel is the model's side of a run: the queue, the destination,
// and the fences each worker won.
type queueModel struct {
	q   *model.Queue
	g   *model.Gate
	won []won[model.Token]
}

func newQueueModel(lease int64, contract gate.Contract) *queueModel {
	q := model.NewQueue(lease)
	for _, j := range jobs {
		q.Add(j.id, j.operation, j.units)
	}
	return &queueModel{q: q, g: model.NewGate(contract)}
}

// presented returns the fence s presents, as the model numbers it.
func (qm *queueModel) presented(s queueStep) model.Token {
	return resolve(s.fence, qm.won, s.worker, s.job, model.Token(neverIssued))
}

// request returns the call s makes to the destination: the job's
// operation, its units (or one more), under the presented fence.
func (qm *queueModel) request(s queueStep) model.Request {
	j, _ := qm.q.Job(s.job)
	req := model.Request{Fence: qm.presented(s), Operation: j.Operation, Units: j.Units, Fail: s.fail}
	if s.changed {
		req.Units++
	}
	return req
}

// queueOutcome is an answer in the model's terms, from the queue (Claim,
// Finish) or the destination (Call). Err holds an error that is neither a
// refusal nor ErrNotFound.
type queueOutcome struct {
	model.QueueAnswer
	Result    gate.Result
	Seen      model.View // for rolled_back: what the failing transaction saw of itself
	Failed    bool       // the call returned an error and no answer
	NotLogged bool       // the answer stands; its arrivals line is missing
	Err       string
}

// apply runs s on the model and returns its answer. presented and req are
// the fence s presents and the call it makes, as they were when s's call
// began (qm.presented, qm.request).
func (qm *queueModel) apply(s queueStep, presented model.Token, req model.Request) queueOutcome {
	switch s.op {
	case "Claim":
		a := qm.q.Claim(s.job, s.worker, s.at)
		if a.Refused == "" && !a.NotFound {
			qm.won = append(qm.won, won[model.Token]{s.worker, s.job, a.Fence})
		}
		return queueOutcome{QueueAnswer: a}
	case "Finish":
		return queueOutcome{QueueAnswer: qm.q.Finish(s.job, s.worker, presented)}
	case "BreakLog":
		qm.g.BreakLog()
		return queueOutcome{}
	case "RepairLog":
		qm.g.RepairLog()
		return queueOutcome{}
	}
	a := qm.g.Apply(req)
	o := queueOutcome{Result: a.Result, Failed: a.Failed, NotLogged: a.NotLogged}
	if a.Seen != nil {
		o.Seen = *a.Seen
	}
	return o
}

// staleWorker returns a worker that won job id before its current holder
// did and is not that holder, or "" if there is none.
func (qm *queueModel) staleWorker(id string) string {
	j, _ := qm.q.Job(id)
	for _, w := range qm.won {
		if w.id == id && w.actor != j.Worker {
			return w.actor
		}
	}
	return ""
}

// leaseEnds returns the ticks at which the model's running leases end.
func (qm *queueModel) leaseEnds() []int64 {
	var ends []int64
	for _, j := range jobs {
		if m, _ := qm.q.Job(j.id); m.State == queue.Running {
			ends = append(ends, m.ExpiresAt)
		}
	}
	return ends
}

// generateQueue draws a sequence of rounds rounds (drawSteps), running the
// model as it goes to aim times at the leases' ends. With overtake, about one step in three
// is overtaken by the next, which mostly names the same job and half the
// time makes the same call.
func generateQueue(t *rapid.T, lease int64, contract gate.Contract, overtake bool, rounds int) queueCase {
	c := queueCase{lease: lease, contract: contract}
	qm := newQueueModel(lease, contract)
	span := max(lease, 5)
	var now int64
	logBroken := false
	var held []queueStep // an overtaken step, applied to the model after its overtaker
	var heldFence model.Token
	var heldReq model.Request
	apply := func(s queueStep) { qm.apply(s, qm.presented(s), qm.request(s)) }
	drawSteps(t, rounds, func(t *rapid.T) {
		now = drawTime(t, now, qm.leaseEnds(), span)
		if (logBroken && chance(t, "repair the log", 1, 4)) || (!logBroken && chance(t, "break the log", 1, 25)) {
			s := queueStep{at: now, worker: operator, op: "BreakLog", job: arrivals}
			if logBroken {
				s.op = "RepairLog"
			}
			logBroken = !logBroken
			apply(s)
			c.steps = append(c.steps, s)
			if len(held) > 0 {
				qm.apply(held[0], heldFence, heldReq)
				held = nil
			}
			return
		}
		s := queueStep{at: now, worker: choose(t, "worker", plainWorkers...), job: choose(t, "job", jobs...).id}
		if len(held) > 0 && !chance(t, "overtaker on another job", 1, 4) {
			s.job = held[0].job
		}
		if chance(t, "odd worker", 3, 10) {
			s.worker = choose(t, "odd worker", oddWorkers...)
		}
		switch n := below(t, "call", 20); {
		case n < 7:
			s.op = "Claim"
		case n < 15:
			s.op = "Call"
		default:
			s.op = "Finish"
		}
		if len(held) > 0 && (chance(t, "same call", 1, 2) || held[0].op == "Call" && chance(t, "same call", 1, 2)) {
			s.op = held[0].op // the same call twice at once: the race the transaction must settle
		}
		if s.op != "Call" && chance(t, "unknown job", 1, 8) {
			s.job = choose(t, "unknown job", unknownJobs...)
		}
		if s.op != "Claim" {
			s.fence = choose(t, "fence", latest, latest, latest, earlier, other, none, never)
		}
		if s.op == "Call" {
			s.changed, s.fail = chance(t, "units+1", 1, 6), chance(t, "fail", 1, 4)
		}
		if j, _ := qm.q.Job(s.job); len(held) > 0 && j.State == queue.Running && chance(t, "holder first", 1, 2) {
			s.worker = j.Worker // the holder itself, with its fence, gets in first
			if s.op != "Claim" {
				s.fence = latest
			}
		}
		if j, _ := qm.q.Job(s.job); chance(t, "impostor", 1, 10) && j.State == queue.Running {
			// An impostor: a name like the holder's, presenting the holder's fence.
			s.worker, s.op, s.fence, s.changed, s.fail = lookAlike(t, j.Worker), "Finish", other, false, false
		}
		if overtake && len(held) == 0 && chance(t, "overtaken", 1, 3) {
			s.overtaken = true
			if stale := qm.staleWorker(s.job); s.op == "Call" && stale != "" && chance(t, "stale caller", 1, 2) {
				// A worker whose lease was taken over calls with its old
				// fence: the holder, mostly, overtakes it (fence-old-first).
				s.worker, s.fence = stale, latest
			}
			c.steps = append(c.steps, s)
			held, heldFence, heldReq = []queueStep{s}, qm.presented(s), qm.request(s)
			return
		}
		c.steps = append(c.steps, s)
		apply(s)
		if len(held) > 0 {
			qm.apply(held[0], heldFence, heldReq)
			held = nil
		}
	})
	return c
}

// sayQueue describes an outcome of op for a person.
func sayQueue(op string, o queueOutcome, toks *tokens) string {
	switch {
	case o.Err != "":
		return "error: " + o.Err
	case o.NotFound:
		return "not found"
	case o.Refused != "" && o.Holder != "":
		return fmt.Sprintf("refused %s (held by %s)", o.Refused, quoteName(o.Holder))
	case o.Refused != "":
		return "refused " + string(o.Refused)
	case op == "Finish":
		return "completed"
	case op == "BreakLog":
		return "the arrivals log refuses new lines"
	case op == "RepairLog":
		return "the arrivals log takes lines again"
	case o.Failed:
		return "failed: no answer, nothing committed"
	}
	s := string(o.Result)
	if s == "" {
		s = "no answer"
	}
	if o.Result == gate.RolledBack {
		s += fmt.Sprintf(" (the failing transaction saw %s)", sayView(o.Seen, toks))
	}
	if o.NotLogged {
		s += ", not logged"
	}
	if op == "Call" {
		return s
	}
	return fmt.Sprintf("%s, lease until %d", toks.sayAs("fence", o.Fence), o.ExpiresAt)
}

// sayView describes the destination's state as mark/units/receipts.
func sayView(v model.View, toks *tokens) string {
	return fmt.Sprintf("%s, %d units, %d receipts", toks.sayAs("mark", v.Mark), v.Units, v.Receipts)
}

// sayJob describes a job's committed row for a person.
func sayJob(j model.Job, toks *tokens) string {
	return fmt.Sprintf("%s, worker %s, %s, lease until %d, %d claims, %s +%d",
		j.State, quoteName(j.Worker), toks.sayAs("fence", j.Fence), j.ExpiresAt, j.Claims, j.Operation, j.Units)
}
