package mailboxlab

// This file draws the lease command's run: msg-2's leases on the logical
// clock, worker-a stalled past its own and refused when it comes back,
// and msg-5, taken over by the worker that held it.

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// SVG draws result, a leaseResult, as two panels: msg-2's takeover and
// msg-5's self-takeover.
func (leaseExperiment) SVG(w io.Writer, result any) error {
	res, ok := result.(leaseResult)
	if !ok {
		return fmt.Errorf("lease: cannot draw a %T", result)
	}
	return drawOne(w, "fencelab lease",
		fmt.Sprintf("Leased claims on a logical clock, %d minutes each: time decides when a takeover may happen; the token decides whose write counts.", res.LeaseMinutes),
		takeoverPanel(res), selfTakeoverPanel(res.SelfTakeover))
}

// margin is how many minutes the axis runs before the first event (where
// the row is still NEW) and after the last.
const margin = 3

// heldLease is a lease a picture has seen begin and not yet end.
type heldLease struct {
	worker       string
	from         timeline.Moment
	token, until int64
	to           *timeline.Moment // set when a write ends it before its expiry
	how          string           // how it ended, for the hover text
}

// span is the lease as a bar: from its grant to its expiry, or to the
// write that ended it first.
func (l *heldLease) span(id string) timeline.Span {
	to, how := timeline.At(l.until), fmt.Sprintf("expired at minute %d", l.until)
	if l.to != nil {
		to, how = *l.to, l.how
	}
	return timeline.Span{Lane: l.worker, Kind: timeline.Lease, From: l.from, To: to,
		Label: fmt.Sprintf("token %d · until %d", l.token, l.until),
		Title: fmt.Sprintf("%s's lease on %s: token %d, granted at minute %d until %d; %s", l.worker, id, l.token, l.from.At, l.until, how)}
}

// takeoverPanel is msg-2's story: the timeline of claims, then the two
// completes, all at the minutes the run's clock showed.
func takeoverPanel(res leaseResult) timeline.Panel {
	const id = "msg-2"
	last := res.Timeline[len(res.Timeline)-1].Minute
	p := timeline.Panel{
		Title: id + ": worker-a stalls past its lease, worker-b takes over",
		About: "worker-a's token 1 stops counting once worker-b's claim mints token 2: its late complete is refused.",
		Axis:  minuteAxis, Lanes: lanes(id, workerA, workerB),
	}
	p.Axis.From, p.Axis.To = -margin, last+margin
	p.Values = append(p.Values, rowValue(id, timeline.At(p.Axis.From), mailbox.New, "", 0, 0))

	var seq timeline.Sequence
	var leases []*heldLease
	current := map[string]*heldLease{} // each worker's latest lease
	var stalledFrom, stalledTo *timeline.Moment
	takenOver := false // whether a worker other than worker-a has claimed yet
	for _, ev := range res.Timeline {
		m := seq.At(ev.Minute)
		e := timeline.Event{Lane: ev.Worker, At: m, Reaches: rowLane, Label: "claim"}
		switch ev.Result {
		case "claimed":
			e.Outcome, e.Result = timeline.Accepted, fmt.Sprintf("claimed: token %d, until %d", ev.Token, ev.ExpiresAt)
			l := &heldLease{worker: ev.Worker, from: m, token: ev.Token, until: ev.ExpiresAt}
			leases = append(leases, l)
			current[ev.Worker] = l
			p.Values = append(p.Values, rowValue(id, m, mailbox.Claimed, ev.Worker, ev.Token, 0))
			if ev.Worker != workerA {
				takenOver = true
			}
		case "still_mine":
			e.Label, e.Outcome = "claim again", timeline.NoEffect
			e.Result = fmt.Sprintf("still_mine: token %d, same end", ev.Token)
		default:
			e.Outcome, e.Result = timeline.Refused, fmt.Sprintf("refused: %s by %s", ev.Reason, ev.Holder)
		}
		// worker-a's stall: from its last call before the takeover to
		// its first one after.
		if ev.Worker == workerA {
			switch {
			case !takenOver:
				stalledFrom = &m
			case stalledTo == nil:
				stalledTo = &m
			}
		}
		p.Events = append(p.Events, e)
	}
	for _, c := range res.Completes {
		m := seq.At(c.at)
		p.Events = append(p.Events, timeline.Event{Lane: c.Worker, At: m, Reaches: rowLane,
			Label: fmt.Sprintf("complete, token %d", c.Token), Outcome: outcomeMark(c.Result), Result: answer(c.Result, c.Reason)})
		if c.Result != "completed" {
			continue
		}
		// Each worker completes once: a complete inside its lease ends
		// the bar; one after it leaves the bar at its expiry.
		if l := current[c.Worker]; l != nil && c.at < l.until {
			l.to, l.how = &m, fmt.Sprintf("ended by its complete at minute %d", c.at)
		}
		// A complete writes the state and nothing else: the row it leaves
		// is the one read at the end, DONE being final.
		f := res.Final
		p.Values = append(p.Values, rowValue(id, m, mailbox.State(f.State), f.ClaimOwner, f.Token, 0))
	}
	// worker-a's claim at minute 0 comes first, so the stall has a start
	// whenever it has an end.
	if stalledTo != nil {
		p.Spans = append(p.Spans, timeline.Span{Lane: workerA, Kind: timeline.Pause, From: *stalledFrom, To: *stalledTo,
			Label: "stalled", Title: fmt.Sprintf("worker-a stalls from minute %d to %d, past its lease", stalledFrom.At, stalledTo.At)})
	}
	for _, l := range leases {
		p.Spans = append(p.Spans, l.span(id))
	}
	return p
}

// selfTakeoverPanel is msg-5's story: worker-a's lease lapses with nobody
// else claiming, and its own claim after that is a new generation.
func selfTakeoverPanel(st selfTakeover) timeline.Panel {
	id := st.Message
	p := timeline.Panel{
		Title: id + ": worker-a takes over from itself",
		About: "Nobody else claimed, yet worker-a's claim after its own lease ended is a new generation, and its first token no longer completes.",
		Axis:  minuteAxis, Lanes: lanes(id, st.Worker),
	}
	p.Axis.From, p.Axis.To = st.FirstMinute-margin, st.SecondMinute+margin
	p.Values = append(p.Values, rowValue(id, timeline.At(p.Axis.From), mailbox.New, "", 0, 0))

	var seq timeline.Sequence
	first := &heldLease{worker: st.Worker, from: seq.At(st.FirstMinute), token: st.FirstToken, until: st.firstExpires}
	second := &heldLease{worker: st.Worker, from: seq.At(st.SecondMinute), token: st.SecondToken, until: st.secondExpires}
	oldComplete, newComplete := seq.At(st.SecondMinute), seq.At(st.SecondMinute)
	for _, l := range []*heldLease{first, second} {
		p.Events = append(p.Events, timeline.Event{Lane: st.Worker, At: l.from, Reaches: rowLane, Label: "claim",
			Outcome: timeline.Accepted, Result: fmt.Sprintf("claimed: token %d, until %d", l.token, l.until)})
		p.Values = append(p.Values, rowValue(id, l.from, mailbox.Claimed, st.Worker, l.token, 0))
	}
	p.Events = append(p.Events,
		timeline.Event{Lane: st.Worker, At: oldComplete, Reaches: rowLane, Label: fmt.Sprintf("complete, token %d", st.FirstToken),
			Outcome: outcomeMark(st.OldTokenComplete), Result: answer(st.OldTokenComplete, st.oldReason)},
		timeline.Event{Lane: st.Worker, At: newComplete, Reaches: rowLane, Label: fmt.Sprintf("complete, token %d", st.SecondToken),
			Outcome: outcomeMark(st.NewTokenComplete), Result: st.NewTokenComplete})
	// A complete writes the state and nothing else: the row keeps the
	// second claim's token, whichever complete was accepted.
	for _, c := range []struct {
		at     timeline.Moment
		result string
	}{{oldComplete, st.OldTokenComplete}, {newComplete, st.NewTokenComplete}} {
		if c.result == "completed" && second.to == nil {
			second.to, second.how = &c.at, fmt.Sprintf("ended by its complete at minute %d", st.SecondMinute)
			p.Values = append(p.Values, rowValue(id, c.at, mailbox.Done, st.Worker, st.SecondToken, 0))
		}
	}
	p.Spans = append(p.Spans, first.span(id), second.span(id))
	return p
}
