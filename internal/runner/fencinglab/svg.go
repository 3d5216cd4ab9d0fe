package fencinglab

// This file draws a report as a picture: one panel per case, with lanes
// for worker A and worker B, and for the committed rows of both files,
// the queue's JOB-1 and the destination's mark, units and receipts. The
// pids are left out: they change on every run, and the picture must not.

import (
	"fmt"
	"io"
	"strings"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// The store lanes of a fencing picture.
const (
	queueLane       = "queue"
	destinationLane = "destination"
)

// SVG draws result, a Report, as one panel per case.
func (e *experiment) SVG(w io.Writer, result any) error {
	rep, ok := result.(Report)
	if !ok {
		return fmt.Errorf("fencing: cannot draw a %T", result)
	}
	f := timeline.Figure{
		Title: "fencelab fencing",
		About: fmt.Sprintf("Worker A pauses holding %s's queue lease and loses it to B; then A calls the destination with its old fence. %s adds %d units.",
			jobID, operation, rep.Units),
	}
	for _, c := range rep.Cases {
		f.Panels = append(f.Panels, casePanel(c))
	}
	return timeline.WriteSVG(w, f)
}

// casePanel draws one case from its report.
func casePanel(c CaseReport) timeline.Panel {
	p := timeline.Panel{
		Title: fmt.Sprintf("%s · destination contract %s", c.Case, c.DestinationContract),
		About: aboutCase(c.Case),
		Axis:  timeline.Axis{Unit: "tick", Clock: "logical clock", From: tickClaimA - 1, To: tickFinish + 1},
		Lanes: []timeline.Lane{
			{ID: workerA, Label: "A", Note: "a separate process"},
			{ID: workerB, Label: "B", Note: "the runner itself"},
			{ID: queueLane, Label: "queue " + jobID, Note: "queue.db", Store: true},
			{ID: destinationLane, Label: "destination", Note: "destination.db", Store: true},
		},
	}
	var seq timeline.Sequence
	first := timeline.At(p.Axis.From)
	p.Values = append(p.Values, timeline.Value{Lane: queueLane, From: first, Text: string(queue.Queued),
		Title: jobID + " is queued: nobody holds it"})
	// Every case calls the destination at least twice.
	p.Values = append(p.Values, destinationValue(c.DestinationContract, first, c.Attempts[0].Before, "before any call"))

	// The claims: A's, after which A reads the job and pauses, then B's.
	var pauseFrom timeline.Moment
	leases := map[string]*timeline.Span{}
	var order []string
	for _, cl := range c.QueueClaims {
		m := seq.At(cl.Tick)
		result := fmt.Sprintf("fence %d, until %d", cl.Fence, cl.ExpiresAt)
		if cl.Worker == workerB {
			result = "takeover: " + result
		}
		p.Events = append(p.Events, timeline.Event{Lane: cl.Worker, At: m, Reaches: queueLane, Outcome: timeline.Accepted,
			Label: "claim " + jobID, Result: result})
		p.Values = append(p.Values, queueValue(m, queue.Running, cl.Worker, cl.Fence))
		leases[cl.Worker] = &timeline.Span{Lane: cl.Worker, Kind: timeline.Lease, From: m, To: timeline.At(cl.ExpiresAt),
			Label: fmt.Sprintf("fence %d · until %d", cl.Fence, cl.ExpiresAt),
			Title: fmt.Sprintf("%s's lease on %s: fence %d from tick %d, expiring at tick %d", cl.Worker, jobID, cl.Fence, cl.Tick, cl.ExpiresAt)}
		order = append(order, cl.Worker)
		if cl.Worker == workerA {
			pauseFrom = seq.At(cl.Tick)
			p.Events = append(p.Events, timeline.Event{Lane: workerA, At: pauseFrom, Reaches: queueLane, Outcome: timeline.Noted,
				Label: "read " + jobID, Result: "then pause"})
		}
	}

	// The destination calls, in the order they arrived.
	for _, at := range c.Attempts {
		m := seq.At(at.Tick)
		label := fmt.Sprintf("call: fence %d, +%d", at.Fence, at.Units)
		outcome, result := attemptMark(at)
		p.Events = append(p.Events, timeline.Event{Lane: at.Worker, At: m, Reaches: destinationLane, Outcome: outcome,
			Label: label, Result: result, Title: attemptTitle(at)})
		if at.After != at.Before {
			p.Values = append(p.Values, destinationValue(c.DestinationContract, m, at.After, fmt.Sprintf("after %s's call", at.Worker)))
		}
		if at.Worker == workerA {
			p.Spans = append(p.Spans, timeline.Span{Lane: workerA, Kind: timeline.Pause, From: pauseFrom, To: m, Label: "paused",
				Title: fmt.Sprintf("A is paused from tick %d until the runner releases it, at tick %d", pauseFrom.At, at.Tick)})
		}
	}

	// The finishes: A's with its old fence, then B's.
	for _, f := range []struct {
		worker string
		finish Finish
	}{{workerA, c.OldWorkerFinish}, {workerB, c.NewWorkerFinish}} {
		m := seq.At(f.finish.Tick)
		e := timeline.Event{Lane: f.worker, At: m, Reaches: queueLane, Label: fmt.Sprintf("finish: fence %d", f.finish.Fence),
			Outcome: timeline.Accepted, Result: f.finish.Result}
		if f.finish.Result != "completed" {
			e.Outcome, e.Result = timeline.Refused, "refused: "+f.finish.Result
		} else {
			// Both workers have claimed: A's lease ends at its expiry
			// unless a finish inside it ends it first.
			if l := leases[f.worker]; m.At < l.To.At {
				l.To = m
				l.Title += fmt.Sprintf("; ended by its finish at tick %d", m.At)
			}
			q := c.QueueFinal
			p.Values = append(p.Values, queueValue(m, q.State, q.Worker, q.Fence))
		}
		p.Events = append(p.Events, e)
	}
	for _, w := range order {
		p.Spans = append(p.Spans, *leases[w])
	}
	d, q := c.DestinationFinal, c.QueueFinal
	p.Notes = []string{fmt.Sprintf("Final: destination %s; queue %s %s by %s with fence %d, %d claims.",
		stateWords(c.DestinationContract, d), q.Job, q.State, q.Worker, q.Fence, q.Claims)}
	return p
}

// aboutCase is the case's one line from the case table.
func aboutCase(name string) string {
	for _, fc := range cases {
		if fc.name == name {
			return fc.about
		}
	}
	return ""
}

// attemptMark is the shape of a destination call's answer and its words.
func attemptMark(at Attempt) (timeline.Outcome, string) {
	switch at.Result {
	case gate.Applied:
		return timeline.Accepted, "applied"
	case gate.Replayed:
		return replayMark(at)
	case gate.Fenced:
		return timeline.Refused, fmt.Sprintf("refused: fenced, %d < mark %d", at.Fence, at.Before.HighestFence)
	case gate.Conflict:
		return timeline.Refused, "refused: conflict, receipt differs"
	case gate.RolledBack:
		if v := at.UncommittedFailureView; v != nil {
			return timeline.RolledBack, fmt.Sprintf("rolled back (it saw mark %d · %d units)", v.HighestFence, v.Units)
		}
		return timeline.RolledBack, "rolled back"
	}
	return timeline.Noted, string(at.Result)
}

// replayMark is the shape and words of a replayed call. A replay adds no
// second effect, but it commits the mark at its fence: one that raised
// the mark wrote something, and the ring ("nothing new written") would
// say otherwise, so it gets the disc of an accepted call.
func replayMark(at Attempt) (timeline.Outcome, string) {
	if at.After == at.Before {
		return timeline.NoEffect, "replayed: no second effect"
	}
	words := "replayed: " + changes(at.Before, at.After)
	if at.After.Units == at.Before.Units {
		words += ", no second effect"
	}
	return timeline.Accepted, words
}

// changes names what a call changed in the destination's committed
// state: "mark 1 → 2".
func changes(before, after gate.State) string {
	var out []string
	for _, f := range []struct {
		name          string
		before, after int64
	}{
		{"mark", before.HighestFence, after.HighestFence},
		{"units", before.Units, after.Units},
		{"receipts", before.Receipts, after.Receipts},
	} {
		if f.before != f.after {
			out = append(out, fmt.Sprintf("%s %d → %d", f.name, f.before, f.after))
		}
	}
	return strings.Join(out, ", ")
}

// attemptTitle is a call's hover text: everything the report says of it.
func attemptTitle(at Attempt) string {
	s := fmt.Sprintf("%s calls the destination at tick %d with fence %d, %s +%d: %s; committed before %s, after %s",
		at.Worker, at.Tick, at.Fence, at.Operation, at.Units, at.Result, stateCell(at.Before), stateCell(at.After))
	if v := at.UncommittedFailureView; v != nil {
		s += fmt.Sprintf("; the failing transaction saw %s of its own before it rolled back", stateCell(*v))
	}
	return s + " (mark/units/receipts)"
}

// destinationValue is the destination's committed state from m on.
func destinationValue(contract gate.Contract, m timeline.Moment, s gate.State, when string) timeline.Value {
	return timeline.Value{Lane: destinationLane, From: m, Text: stateWords(contract, s),
		Title: fmt.Sprintf("destination, committed %s: highest_fence %d, units %d, receipts %d", when, s.HighestFence, s.Units, s.Receipts)}
}

// stateWords says a destination state in words, leaving out what its
// contract does not keep: no mark without fencing, no receipts without
// receipts.
func stateWords(contract gate.Contract, s gate.State) string {
	w := fmt.Sprintf("%d units", s.Units)
	if contract != gate.None {
		w = fmt.Sprintf("mark %d · %s", s.HighestFence, w)
	}
	if contract == gate.FenceReceipt {
		w += fmt.Sprintf(" · %d receipt", s.Receipts)
		if s.Receipts != 1 {
			w += "s"
		}
	}
	return w
}

// queueValue is the queue's committed row from m on.
func queueValue(m timeline.Moment, state queue.State, worker string, fence int64) timeline.Value {
	return timeline.Value{Lane: queueLane, From: m, Text: fmt.Sprintf("%s · %s · fence %d", state, worker, fence),
		Title: fmt.Sprintf("%s's committed row: %s by %s with fence %d", jobID, state, worker, fence)}
}
