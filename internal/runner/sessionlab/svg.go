package sessionlab

// This file draws the incarnation command's run: kiosk-a's first run of
// sess-1 cut off by a dead network, kiosk-b's run that commits, kiosk-a's
// late callbacks refused even once it hosts the session again, and its
// third run, alive but past its session lease, refused too.

import (
	"fmt"
	"io"
	"strings"

	"github.com/fencelab/fencelab/internal/runner/cli"
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
	var runs []*timeline.Span // each run's session lease, in the order they began
	var claimedAt []timeline.Moment
	for _, c := range res.Claims {
		m := seq.At(c.Minute)
		claimedAt = append(claimedAt, m)
		p.Events = append(p.Events, claimMark(m, c.Host, c.Incarnation, c.ExpiresAt))
		runs = append(runs, newRun(m, c.Host, c.Incarnation, c.ExpiresAt))
		p.Spans = append(p.Spans, hostSpan(m, c.Host, c.HostLeaseExpiresAt))
		p.Values = append(p.Values, sessionValue(res.Session, m, c.Host, c.Incarnation, c.ExpiresAt))
	}
	// kiosk-a's network is down from its claim until its callback
	// arrives.
	var callbackAt timeline.Moment
	var finishes finishes
	for i, f := range res.Finishes {
		m := seq.At(f.Minute)
		if i == 0 {
			callbackAt = m
		}
		label := fmt.Sprintf("finish, incarnation %d", f.Incarnation)
		if f.Incarnation < res.Incarnations[len(res.Incarnations)-1] {
			label = fmt.Sprintf("late callback, incarnation %d", f.Incarnation)
		}
		finishes.add(&p, m, f.Host, label, f.Outcome)
		// A finish committed within its run's lease releases the session.
		// (One committed after it, which a sound mechanism refuses, leaves
		// the bar as it was.) The i-th finish presents the i-th claim.
		if r := runs[i]; f.Result == "committed" && m.At < r.To.At {
			r.To, r.Title = m, r.Title+fmt.Sprintf("; released by its finish at minute %d", f.Minute)
			p.Values = append(p.Values, timeline.Value{Lane: sessionLane, From: m,
				Text:  fmt.Sprintf("incarnation %d · free", f.Incarnation),
				Title: fmt.Sprintf("%s released by its finish: no host, incarnation %d kept", res.Session, f.Incarnation)})
		}
	}
	p.Spans = append(p.Spans, timeline.Span{Lane: kioskA, Kind: timeline.Pause, From: claimedAt[0], To: callbackAt,
		Label: "network down",
		Title: fmt.Sprintf("%s's network is down from minute %d; its callback arrives at minute %d", kioskA, claimedAt[0].At, callbackAt.At)})

	// kiosk-a hosts the session again; the old callback comes once more.
	rh := res.Rehost
	m := seq.At(rh.Minute)
	p.Events = append(p.Events, claimMark(m, rh.Host, rh.Incarnation, rh.expiresAt))
	runs = append(runs, newRun(m, rh.Host, rh.Incarnation, rh.expiresAt))
	p.Spans = append(p.Spans, hostSpan(m, rh.Host, rh.hostUntil))
	p.Values = append(p.Values, sessionValue(res.Session, m, rh.Host, rh.Incarnation, rh.expiresAt))
	cb := rh.OldCallback
	finishes.add(&p, seq.At(cb.Minute), rh.Host, fmt.Sprintf("old callback, incarnation %d", cb.Incarnation), cb.Outcome)

	// Minute 50: kiosk-a is alive (its host lease renewed) but its run's
	// session lease has ended.
	ex := res.ExpiredWithoutTakeover
	renew := seq.At(ex.Minute)
	p.Events = append(p.Events, timeline.Event{Lane: ex.Host, At: renew, Reaches: sessionLane, Outcome: timeline.Accepted,
		Label: "renew host lease", Result: fmt.Sprintf("alive until %d", ex.HostLeaseExpiresAt)})
	p.Spans = append(p.Spans, hostSpan(renew, ex.Host, ex.HostLeaseExpiresAt))
	finishes.add(&p, seq.At(ex.Minute), ex.Host, fmt.Sprintf("finish, incarnation %d", ex.Incarnation), ex.Outcome)

	for _, r := range runs {
		p.Spans = append(p.Spans, *r)
	}
	p.Axis.From, p.Axis.To = first.At, ex.HostLeaseExpiresAt+margin
	p.Values = append(p.Values, finishes.completions(res.Committed)...)
	for i := range p.Events {
		p.Events[i].Title = hoverText(p.Events[i])
	}
	p.Notes = []string{finishes.note(res.Committed)}
	return timeline.WriteSVG(w, timeline.Figure{
		Title: "fencelab incarnation",
		About: fmt.Sprintf("One ledger, two kiosks on their own connections; session leases of %d minutes, host leases of %d.",
			res.SessionLeaseMinutes, res.HostLeaseMinutes),
		Panels: []timeline.Panel{p},
	})
}

// hoverText is a mark's hover text: who, at which minute, and what it
// answered. The axis pushes marks a minute apart away from each other,
// so the minute is said here rather than left to the ticks.
func hoverText(e timeline.Event) string {
	return fmt.Sprintf("%s at minute %d: %s: %s", e.Lane, e.At.At, e.Label, e.Result)
}

func claimMark(m timeline.Moment, host string, inc, until int64) timeline.Event {
	return timeline.Event{Lane: host, At: m, Reaches: sessionLane, Outcome: timeline.Accepted, Label: "claim",
		Result: fmt.Sprintf("incarnation %d, until %d", inc, until)}
}

// finishes are the finishes (callbacks) the picture draws, in order.
type finishes []finishAt

type finishAt struct {
	at        timeline.Moment
	host      string
	committed bool
}

// add draws a finish by host at m, labelled label, with its answer.
func (fs *finishes) add(p *timeline.Panel, m timeline.Moment, host, label string, out cli.Outcome) {
	e := timeline.Event{Lane: host, At: m, Reaches: completionLane, Outcome: timeline.Accepted, Label: label, Result: out.Result}
	if out.Result == cli.Refused {
		e.Outcome, e.Result = timeline.Refused, "refused: "+out.Reason
	}
	p.Events = append(p.Events, e)
	*fs = append(*fs, finishAt{at: m, host: host, committed: out.Result == "committed"})
}

// completions are the completions lane's values: after each committed
// row, at the finish that wrote it, every row so far. The row is drawn
// at its finish whatever that finish answered: a mechanism that commits
// a finish it reports refused has still written the row.
func (fs finishes) completions(rows []committed) []timeline.Value {
	var vs []timeline.Value
	var so []string
	for _, c := range rows {
		for _, f := range fs {
			// A host finishes at most once a minute in this story.
			if f.host != c.Host || f.at.At != c.FinishedAt {
				continue
			}
			so = append(so, fmt.Sprintf("%s · incarnation %d", c.Host, c.Incarnation))
			text := strings.Join(so, " + ")
			if len(so) == 1 {
				text += ": " + c.Result
			}
			vs = append(vs, timeline.Value{Lane: completionLane, From: f.at, Text: text,
				Title: fmt.Sprintf("committed at minute %d: %s, incarnation %d, result %q", c.FinishedAt, c.Host, c.Incarnation, c.Result)})
			break
		}
	}
	return vs
}

// note says what was committed and how many finishes were refused.
func (fs finishes) note(rows []committed) string {
	var done []string
	for _, c := range rows {
		done = append(done, fmt.Sprintf("%s under incarnation %d", c.Host, c.Incarnation))
	}
	if len(done) == 0 {
		done = []string{"nothing"}
	}
	refused := 0
	for _, f := range fs {
		if !f.committed {
			refused++
		}
	}
	return fmt.Sprintf("Committed: %s. Refused: %d of the %d finishes.", strings.Join(done, ", "), refused, len(fs))
}

// newRun is the bar of a run of the session claimed at m: from the claim
// until its session lease expires (or, set later, its finish releases it).
func newRun(m timeline.Moment, host string, inc, until int64) *timeline.Span {
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
