package sessionlab

// This file draws the incarnation command's run: kiosk-a's first run of
// sess-1 cut off by a dead network, kiosk-b's run that commits, kiosk-a's
// late callbacks refused even once it hosts the session again, and its
// third run, alive but past its session lease, refused too.

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// The store lanes of the picture: the session's row, and the completions
// the ledger committed.
const (
	sessionLane    = "session"
	completionLane = "completions"
)

// margin is how many minutes the axis runs before the first claim and
// after the last lease.
const margin = 3

// SVG draws result as one panel on the logical clock.
func (experiment) SVG(w io.Writer, drawn any) error {
	res, ok := drawn.(result)
	if !ok {
		return fmt.Errorf("incarnation: cannot draw a %T", drawn)
	}
	p := timeline.Panel{
		Title: res.Session + ": two kiosks, three runs",
		About: "Each new run of the session gets the next incarnation; a finish must present the current one, with both its leases live.",
		Axis:  timeline.Axis{Unit: "minute", Clock: "logical clock"},
		Lanes: []timeline.Lane{
			{ID: kioskA, Label: kioskA},
			{ID: kioskB, Label: kioskB},
			{ID: sessionLane, Label: res.Session, Note: "row in " + ledger, Store: true},
			{ID: completionLane, Label: "completions", Note: "of " + res.Session, Store: true},
		},
	}
	first := timeline.At(res.Claims[0].Minute - margin)
	p.Values = append(p.Values,
		timeline.Value{Lane: sessionLane, From: first, Text: "no row yet", Title: res.Session + " has no row until its first claim"},
		timeline.Value{Lane: completionLane, From: first, Text: "none", Title: "no completion committed yet"})

	var seq timeline.Sequence
	// The first two runs: kiosk-a's at minute 0, kiosk-b's takeover.
	runs := map[int64]*timeline.Span{} // each run's session lease, by incarnation
	var claimedAt []timeline.Moment
	for _, c := range res.Claims {
		m := seq.At(c.Minute)
		claimedAt = append(claimedAt, m)
		p.Events = append(p.Events, claimMark(m, c.Host, c.Incarnation, c.ExpiresAt))
		runs[c.Incarnation] = runSpan(m, c.Host, c.Incarnation, c.ExpiresAt)
		p.Spans = append(p.Spans, hostSpan(m, c.Host, c.HostLeaseExpiresAt))
		p.Values = append(p.Values, sessionValue(res.Session, m, c.Host, c.Incarnation, c.ExpiresAt))
	}
	// kiosk-a's network is down from its claim until its callback
	// arrives.
	var callbackAt timeline.Moment
	for i, f := range res.Finishes {
		m := seq.At(f.Minute)
		if i == 0 {
			callbackAt = m
		}
		label := fmt.Sprintf("finish, incarnation %d", f.Incarnation)
		if f.Incarnation < res.Incarnations[len(res.Incarnations)-1] {
			label = fmt.Sprintf("late callback, incarnation %d", f.Incarnation)
		}
		p.Events = append(p.Events, finishMark(m, f.Host, label, f.Outcome.Result, f.Outcome.Reason))
		if f.Result == "committed" {
			if r := runs[f.Incarnation]; r != nil {
				r.To, r.Title = m, r.Title+fmt.Sprintf("; released by its finish at minute %d", f.Minute)
			}
			p.Values = append(p.Values, timeline.Value{Lane: sessionLane, From: m,
				Text:  fmt.Sprintf("incarnation %d · free", f.Incarnation),
				Title: fmt.Sprintf("%s released by its finish: no host, incarnation %d kept", res.Session, f.Incarnation)})
			for _, c := range res.Committed {
				if c.Incarnation == f.Incarnation {
					p.Values = append(p.Values, timeline.Value{Lane: completionLane, From: m,
						Text:  fmt.Sprintf("%s · incarnation %d: %s", c.Host, c.Incarnation, c.Result),
						Title: fmt.Sprintf("committed at minute %d: %s, incarnation %d, result %q", c.FinishedAt, c.Host, c.Incarnation, c.Result)})
				}
			}
		}
	}
	if len(claimedAt) > 0 && len(res.Finishes) > 0 {
		p.Spans = append(p.Spans, timeline.Span{Lane: kioskA, Kind: timeline.Pause, From: claimedAt[0], To: callbackAt,
			Label: "network down",
			Title: fmt.Sprintf("%s's network is down from minute %d; its callback arrives at minute %d", kioskA, claimedAt[0].At, callbackAt.At)})
	}

	// kiosk-a hosts the session again; the old callback comes once more.
	rh := res.Rehost
	m := seq.At(rh.Minute)
	p.Events = append(p.Events, claimMark(m, rh.Host, rh.Incarnation, rh.expiresAt))
	runs[rh.Incarnation] = runSpan(m, rh.Host, rh.Incarnation, rh.expiresAt)
	p.Spans = append(p.Spans, hostSpan(m, rh.Host, rh.hostUntil))
	p.Values = append(p.Values, sessionValue(res.Session, m, rh.Host, rh.Incarnation, rh.expiresAt))
	cb := rh.OldCallback
	p.Events = append(p.Events, finishMark(seq.At(cb.Minute), rh.Host, fmt.Sprintf("old callback, incarnation %d", cb.Incarnation), cb.Result, cb.Reason))

	// Minute 50: kiosk-a is alive (its host lease renewed) but its run's
	// session lease has ended.
	ex := res.ExpiredWithoutTakeover
	renew := seq.At(ex.Minute)
	p.Events = append(p.Events, timeline.Event{Lane: ex.Host, At: renew, Reaches: sessionLane, Outcome: timeline.Accepted,
		Label: "renew host lease", Result: fmt.Sprintf("alive until %d", ex.HostLeaseExpiresAt)})
	p.Spans = append(p.Spans, hostSpan(renew, ex.Host, ex.HostLeaseExpiresAt))
	p.Events = append(p.Events, finishMark(seq.At(ex.Minute), ex.Host, fmt.Sprintf("finish, incarnation %d", ex.Incarnation), ex.Result, ex.Reason))

	for _, inc := range res.Incarnations {
		p.Spans = append(p.Spans, *runs[inc])
	}
	p.Spans = append(p.Spans, *runs[rh.Incarnation])
	p.Axis.From, p.Axis.To = first.At, ex.HostLeaseExpiresAt+margin
	p.Notes = []string{fmt.Sprintf("Committed: %d completion, by %s under incarnation %d; every late callback was refused.",
		len(res.Committed), res.Committed[0].Host, res.Committed[0].Incarnation)}
	return timeline.WriteSVG(w, timeline.Figure{
		Title: "fencelab incarnation",
		About: fmt.Sprintf("One ledger, two kiosks on their own connections; session leases of %d minutes, host leases of %d.",
			res.SessionLeaseMinutes, res.HostLeaseMinutes),
		Panels: []timeline.Panel{p},
	})
}

func claimMark(m timeline.Moment, host string, inc, until int64) timeline.Event {
	return timeline.Event{Lane: host, At: m, Reaches: sessionLane, Outcome: timeline.Accepted, Label: "claim",
		Result: fmt.Sprintf("incarnation %d, until %d", inc, until)}
}

// finishMark is a finish (a callback) by host, labelled label, and its
// answer.
func finishMark(m timeline.Moment, host, label, result, reason string) timeline.Event {
	e := timeline.Event{Lane: host, At: m, Reaches: completionLane, Outcome: timeline.Accepted, Label: label, Result: result}
	if result == "refused" {
		e.Outcome, e.Result = timeline.Refused, "refused: "+reason
	}
	return e
}

// runSpan is one run's session lease, from its claim until it expires
// (or, set later, its finish releases it).
func runSpan(m timeline.Moment, host string, inc, until int64) *timeline.Span {
	return &timeline.Span{Lane: host, Kind: timeline.Lease, From: m, To: timeline.At(until),
		Label: fmt.Sprintf("incarnation %d · until %d", inc, until),
		Title: fmt.Sprintf("%s runs the session as incarnation %d: session lease from minute %d until %d", host, inc, m.At, until)}
}

// hostSpan is a host lease renewed at m.
func hostSpan(m timeline.Moment, host string, until int64) timeline.Span {
	return timeline.Span{Lane: host, Kind: timeline.HostLease, From: m, To: timeline.At(until),
		Title: fmt.Sprintf("%s's host lease, renewed at minute %d until %d", host, m.At, until)}
}

func sessionValue(session string, m timeline.Moment, host string, inc, until int64) timeline.Value {
	return timeline.Value{Lane: sessionLane, From: m, Text: fmt.Sprintf("incarnation %d · %s", inc, host),
		Title: fmt.Sprintf("%s's row: host %s, incarnation %d, session lease until %d", session, host, inc, until)}
}
