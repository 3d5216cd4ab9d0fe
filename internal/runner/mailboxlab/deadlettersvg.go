package mailboxlab

// This file draws the deadletter command's run: msg-3 claimed and failed
// four times against a budget of three retries, ending DEAD; and msg-4,
// whose stale holder's failure report is refused.

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// SVG draws result, a deadLetterResult, as two panels.
func (deadLetterExperiment) SVG(w io.Writer, result any) error {
	res, ok := result.(deadLetterResult)
	if !ok {
		return fmt.Errorf("deadletter: cannot draw a %T", result)
	}
	return drawOne(w, "fencelab deadletter",
		fmt.Sprintf("A failing message goes back to NEW at most %d times, then to DEAD; every failure report presents its token.", res.MaxRetries),
		budgetPanel(res), staleCopyPanel(res.StaleCopy))
}

// budgetValue is msg-3's row in the budget panel: its state and retries;
// the tokens are on the bars.
func budgetValue(id string, m timeline.Moment, state mailbox.State, owner string, token int64, retries int) timeline.Value {
	v := rowValue(id, m, state, "", 0, retries)
	v.Title = rowTitle(id, state, owner, token, retries)
	return v
}

// budgetPanel is msg-3's story: each attempt claims at its minute, and
// its holder reports the failure at once.
func budgetPanel(res deadLetterResult) timeline.Panel {
	const id = "msg-3"
	p := timeline.Panel{
		Title: fmt.Sprintf("%s fails every time: %d retries, then DEAD", id, res.MaxRetries),
		About: "Each claim mints a fresh token; the holder reports the failure with it. The fourth report parks the message, body and count kept.",
		Axis:  minuteAxis, Lanes: lanes(id, workerA),
	}
	first, last := res.Attempts[0].Minute, res.Attempts[len(res.Attempts)-1].Minute
	p.Axis.From, p.Axis.To = first-1, last+1
	p.Values = append(p.Values, budgetValue(id, timeline.At(p.Axis.From), mailbox.New, "", 0, 0))
	var seq timeline.Sequence
	retries := 0
	for _, a := range res.Attempts {
		claim, report := seq.At(a.Minute), seq.At(a.Minute)
		p.Events = append(p.Events,
			timeline.Event{Lane: workerA, At: claim, Reaches: rowLane, Outcome: timeline.Accepted,
				Label: "claim", Result: fmt.Sprintf("token %d", a.Token)},
			timeline.Event{Lane: workerA, At: report, Reaches: rowLane, Outcome: outcomeMark(a.Verdict),
				Label: "fails: report", Result: answer(a.Verdict, a.Reason)})
		p.Spans = append(p.Spans, timeline.Span{Lane: workerA, Kind: timeline.Lease, From: claim, To: report,
			Label: fmt.Sprintf("token %d", a.Token),
			Title: fmt.Sprintf("attempt %d: worker-a holds %s under token %d until its failure report", a.Attempt, id, a.Token)})
		p.Values = append(p.Values, budgetValue(id, claim, mailbox.Claimed, workerA, a.Token, retries))
		switch a.Verdict {
		case "retried":
			retries++
			p.Values = append(p.Values, budgetValue(id, report, mailbox.New, "", 0, retries))
		case "dead_lettered":
			p.Values = append(p.Values, budgetValue(id, report, mailbox.Dead, workerA, a.Token, retries))
		}
	}
	p.Notes = []string{fmt.Sprintf("At the end: %s is %s with retry_count %d, body %q kept.", id, res.Final.State, res.Final.RetryCount, res.Final.Body)}
	return p
}

// staleCopyPanel is msg-4's story: worker-a stalls past its lease,
// worker-b takes over, and worker-a reports a failure from its stale
// copy.
func staleCopyPanel(sc staleCopy) timeline.Panel {
	id := sc.Message
	p := timeline.Panel{
		Title: id + ": a failure report from a stale copy",
		About: "worker-a stalls past its lease; after worker-b's takeover, its report with the old token changes nothing.",
		Axis:  minuteAxis, Lanes: lanes(id, workerA, workerB),
	}
	p.Axis.From, p.Axis.To = sc.presentedAt-margin, sc.currentAt+margin
	var seq timeline.Sequence
	oldClaim, newClaim, report := seq.At(sc.presentedAt), seq.At(sc.currentAt), seq.At(sc.currentAt)
	p.Values = append(p.Values,
		rowValue(id, timeline.At(p.Axis.From), mailbox.New, "", 0, 0),
		rowValue(id, oldClaim, mailbox.Claimed, workerA, sc.PresentedToken, 0),
		rowValue(id, newClaim, mailbox.Claimed, workerB, sc.CurrentToken, 0))
	if sc.Verdict != "refused" {
		// The report went through: the row is what it says afterwards.
		p.Values = append(p.Values, rowValue(id, report, mailbox.State(sc.StateAfter), sc.OwnerAfter, sc.tokenAfter, sc.RetryCountAfter))
	}
	p.Events = append(p.Events,
		timeline.Event{Lane: workerA, At: oldClaim, Reaches: rowLane, Outcome: timeline.Accepted,
			Label: "claim", Result: fmt.Sprintf("claimed: token %d, until %d", sc.PresentedToken, sc.presentedUntil)},
		timeline.Event{Lane: workerB, At: newClaim, Reaches: rowLane, Outcome: timeline.Accepted,
			Label: "claim", Result: fmt.Sprintf("claimed: token %d, until %d", sc.CurrentToken, sc.currentUntil)},
		timeline.Event{Lane: workerA, At: report, Reaches: rowLane, Outcome: outcomeMark(sc.Verdict),
			Label: fmt.Sprintf("fails: report, token %d", sc.PresentedToken), Result: answer(sc.Verdict, sc.Reason)})
	p.Spans = append(p.Spans,
		timeline.Span{Lane: workerA, Kind: timeline.Lease, From: oldClaim, To: timeline.At(sc.presentedUntil),
			Label: fmt.Sprintf("token %d · until %d", sc.PresentedToken, sc.presentedUntil),
			Title: fmt.Sprintf("worker-a's lease on %s: token %d, minute %d until %d, expired", id, sc.PresentedToken, sc.presentedAt, sc.presentedUntil)},
		timeline.Span{Lane: workerA, Kind: timeline.Pause, From: oldClaim, To: report, Label: "stalled, with its copy",
			Title: fmt.Sprintf("worker-a stalls from minute %d, holding its in-memory copy and token %d", sc.presentedAt, sc.PresentedToken)},
		timeline.Span{Lane: workerB, Kind: timeline.Lease, From: newClaim, To: timeline.At(min(sc.currentUntil, p.Axis.To)),
			Label: fmt.Sprintf("token %d · until %d", sc.CurrentToken, sc.currentUntil),
			Title: fmt.Sprintf("worker-b's lease on %s: token %d, minute %d until %d, still held when the story ends", id, sc.CurrentToken, sc.currentAt, sc.currentUntil)})
	holder := sc.OwnerAfter
	if holder == "" {
		holder = "nobody" // the report went through and let the claim go
	}
	p.Notes = []string{fmt.Sprintf("Afterwards: %s is %s, held by %s, retry_count %d.", id, sc.StateAfter, holder, sc.RetryCountAfter)}
	return p
}
