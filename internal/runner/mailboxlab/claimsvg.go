package mailboxlab

// This file draws the claim command's run: worker-a's compare-and-set
// wins a token, worker-b's is refused, and of worker-a's two completes
// only the one under its own token is accepted.

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// CheckFormat refuses --format svg in race mode, as naive's does.
func (e *claimExperiment) CheckFormat(format string) error { return e.raceFlags.checkFormat(format) }

// SVG draws result, a claimResult, as one panel: one handshake step per
// claim and complete.
func (e *claimExperiment) SVG(w io.Writer, result any) error {
	res, ok := result.(claimResult)
	if !ok {
		return fmt.Errorf("claim: cannot draw a %T", result)
	}
	const id = "msg-1"
	var names []string
	for _, c := range res.Claims {
		names = append(names, c.Worker)
	}
	p := timeline.Panel{
		Title: id + ": one compare-and-set, one token",
		About: "The claim mints a token in its own transaction; a complete must present exactly that token.",
		Axis:  stepAxis, Lanes: lanes(id, names...),
	}
	p.Values = append(p.Values, rowValue(id, timeline.At(0), mailbox.New, "", 0, 0))
	// Every claim that won holds msg-1 from then on (one, unless the
	// compare-and-set is broken), until a complete under its token.
	var held []*timeline.Span
	for _, c := range res.Claims {
		e := timeline.Event{Lane: c.Worker, At: timeline.At(c.at), Reaches: rowLane, Label: "claim",
			Outcome: outcomeMark(c.Result), Result: answer(c.Result, c.Reason)}
		if c.Result == "claimed" {
			e.Result = fmt.Sprintf("claimed: token %d", c.Token)
			held = append(held, &timeline.Span{Lane: c.Worker, Kind: timeline.Lease, From: e.At,
				Label: fmt.Sprintf("token %d · no lease end", c.Token)})
			p.Values = append(p.Values, rowValue(id, e.At, mailbox.Claimed, c.Worker, c.Token, 0))
		}
		p.Events = append(p.Events, e)
	}
	p.Axis.To = int64(len(res.Claims)+len(res.Completes)) + 1
	for _, c := range res.Completes {
		at := timeline.At(c.at)
		p.Events = append(p.Events, timeline.Event{Lane: c.Worker, At: at, Reaches: rowLane,
			Label: fmt.Sprintf("complete, token %d", c.Token), Outcome: outcomeMark(c.Result), Result: answer(c.Result, c.Reason)})
		if c.Result != "completed" {
			continue
		}
		// A complete writes the state and nothing else: the row it leaves
		// is the one read at the end, DONE being final.
		f := res.Final
		p.Values = append(p.Values, rowValue(id, at, mailbox.State(f.State), f.ClaimOwner, f.Token, 0))
		for _, h := range held {
			if h.Lane == c.Worker && h.To == (timeline.Moment{}) {
				h.To = at
			}
		}
	}
	for _, h := range held {
		if h.To == (timeline.Moment{}) {
			h.To = timeline.At(p.Axis.To)
		}
		h.Title = fmt.Sprintf("%s holds %s from step %d to step %d: %s", h.Lane, id, h.From.At, h.To.At, h.Label)
		p.Spans = append(p.Spans, *h)
	}
	p.Notes = []string{fmt.Sprintf("At the end: %s is %s under token %d, owned by %s.", id, res.Final.State, res.Final.Token, res.Final.ClaimOwner)}
	return drawOne(w, "fencelab claim",
		"Two worker processes claim one message with a compare-and-set, worker-a first; pipes order the steps.", p)
}
