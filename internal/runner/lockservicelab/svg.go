package lockservicelab

// This file draws a run as a picture: one panel per case, with the
// cluster on top (where the lock is granted), workers A and B under it,
// and the destination at the bottom (where the write lands and the token
// is checked). The axis is the order of the runner's handshakes, not the
// wall clock, and members are not named (which one leads is the
// election's choice): the same flags draw the same picture on every run.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// The lanes of a lockservice picture, top to bottom, besides A and B.
const (
	membersLane     = "members" // kills, elections, restarts
	lockLane        = "lock"    // the lock's committed state in the cluster
	destinationLane = "destination"
)

// SVG draws result, a *Result, as one panel per case.
func (f *flags) SVG(w io.Writer, result any) error {
	res, ok := result.(*Result)
	if !ok {
		return fmt.Errorf("lockservice: cannot draw a %T", result)
	}
	fence := "checks each write's token against its committed mark"
	if res.Fence == "off" {
		fence = "checks no token (--fence off)"
	}
	fig := timeline.Figure{
		Title: "fencelab lockservice --fence " + res.Fence,
		About: fmt.Sprintf("A cluster of %d etcd members grants a lock; its token is the revision of the holder's lock key. "+
			"Workers A and B write to a destination in another place, which %s.", res.Cluster.Members, fence),
	}
	for _, c := range res.Cases {
		fig.Panels = append(fig.Panels, casePanel(res.Fence, c))
		if c.Remedy != nil {
			fig.Panels = append(fig.Panels, casePanel(res.Fence, c.Remedy))
		}
	}
	return timeline.WriteSVG(w, fig)
}

// casePanel draws one case from its steps.
func casePanel(fence string, c *CaseResult) timeline.Panel {
	aNote := "a lock worker process"
	if c.Case == "partition" {
		aNote = "reaches the members through a proxy"
	}
	destNote := "fences by the token"
	if fence == "off" {
		destNote = "checks no token"
	}
	last := int64(len(c.steps))
	p := timeline.Panel{
		Title: fmt.Sprintf("%s · leases of %d s", c.Case, c.TTLSeconds),
		About: aboutScenario(c.Case),
		Axis:  timeline.Axis{Unit: "step", Clock: "handshake order", From: 0, To: last + 1},
		Values: []timeline.Value{
			{Lane: lockLane, From: timeline.At(0), Text: "free", Title: "no session holds the lock: no key under its prefix"},
			{Lane: destinationLane, From: timeline.At(0), Text: "mark 0 · 0 writes", Title: "the case's key: no write has taken effect"},
		},
	}
	if slices.ContainsFunc(c.steps, func(s step) bool { return s.kind == stepKill }) {
		p.Lanes = append(p.Lanes, timeline.Lane{ID: membersLane, Label: "etcd members", Note: fmt.Sprintf("%d processes", memberCount)})
	}
	p.Lanes = append(p.Lanes,
		timeline.Lane{ID: lockLane, Label: "the lock", Note: "keys in etcd", Store: true},
		timeline.Lane{ID: "A", Label: "A", Note: aNote},
		timeline.Lane{ID: "B", Label: "B", Note: "a lock worker process"},
		timeline.Lane{ID: destinationLane, Label: "destination", Note: destNote, Store: true})
	var grants []int // indexes into p.Spans of the leases, in grant order
	var faultFrom timeline.Moment
	for i, s := range c.steps {
		at := timeline.At(int64(i + 1))
		switch s.kind {
		case stepGrant:
			if len(grants) > 0 {
				// The lock passes on only once the holder's key is gone:
				// its lease had ended by this step.
				prev := &p.Spans[grants[len(grants)-1]]
				prev.To = at
				prev.Title += fmt.Sprintf("; it had ended, as the leader measured it, before %s was granted the lock", s.worker)
			}
			grants = append(grants, len(p.Spans))
			p.Spans = append(p.Spans, timeline.Span{Lane: s.worker, Kind: timeline.Lease, From: at, To: timeline.At(last + 1),
				Label: fmt.Sprintf("token %d · lease %d s", s.token, c.TTLSeconds),
				Title: fmt.Sprintf("%s holds the lock with token %d, the revision at which the cluster created its lock key; its session's lease of %d s is measured on the leader's clock",
					s.worker, s.token, c.TTLSeconds)})
			p.Events = append(p.Events, timeline.Event{Lane: s.worker, At: at, Outcome: timeline.Accepted, Reaches: lockLane,
				Label: "lock", Result: fmt.Sprintf("granted: token %d", s.token)})
			p.Values = append(p.Values, timeline.Value{Lane: lockLane, From: at, Text: fmt.Sprintf("%s's key · revision %d", s.worker, s.token),
				Title: fmt.Sprintf("the lock is %s's: its key, created at revision %d, is the oldest under the lock's prefix", s.worker, s.token)})
		case stepLockRefused:
			p.Events = append(p.Events, timeline.Event{Lane: s.worker, At: at, Outcome: timeline.Refused, Reaches: lockLane,
				Label: "try the lock", Result: "refused: " + s.reason, Title: lockRefusalTitle(s)})
		case stepCheck:
			p.Events = append(p.Events, timeline.Event{Lane: s.worker, At: at, Outcome: timeline.Noted,
				Label: "check its session", Result: "still mine: about to write",
				Title: s.worker + "'s own client still believes its session is alive: a belief, not a grant"})
		case stepPause, stepCut:
			faultFrom = at
		case stepResume:
			p.Spans = append(p.Spans, timeline.Span{Lane: s.worker, Kind: timeline.Pause, From: faultFrom, To: at,
				Label: "paused (SIGSTOP)", Title: s.worker + " is stopped with SIGSTOP, then resumed with SIGCONT: no keep-alive of its lease reaches the leader meanwhile"})
		case stepRestore:
			p.Spans = append(p.Spans, timeline.Span{Lane: s.worker, Kind: timeline.Cut, From: faultFrom, To: at,
				Label: "cut off from every member", Title: s.worker + "'s traffic to every member is dropped by the proxy while it still reaches the destination"})
		case stepKill:
			e := timeline.Event{Lane: membersLane, At: at, Outcome: timeline.Killed, Label: "leader killed", Result: "2 of 3 left: a majority",
				Title: "the member leading the cluster is killed with kill -9"}
			if s.members > 1 {
				e.Label, e.Result = "leader and one more killed", "1 of 3 left: no majority"
				e.Title = fmt.Sprintf("%d members, the leader among them, are killed with kill -9: the one left cannot commit anything", s.members)
			}
			p.Events = append(p.Events, e)
		case stepElected:
			p.Events = append(p.Events, timeline.Event{Lane: membersLane, At: at, Outcome: timeline.Noted, Label: "new leader elected",
				Title: "the two members left elect a leader, which keeps every lease, with its full TTL again"})
		case stepRestart:
			e := timeline.Event{Lane: membersLane, At: at, Outcome: timeline.Noted, Label: "killed member restarted",
				Title: "the killed member starts again from its data and rejoins the cluster"}
			if s.members > 1 {
				e.Label, e.Title = "killed members restarted", "the killed members start again from their data: a majority is back"
			}
			p.Events = append(p.Events, e)
		case stepWrite:
			writeStep(&p, at, s)
		}
	}
	d := c.DestinationFinal
	p.Notes = []string{fmt.Sprintf("Final: destination mark %d, %s took effect; double effects %d, stale writes accepted %d: %s.",
		d.Mark, plural(d.Writes, "write"), c.DoubleEffects, c.StaleWritesAccepted, c.Verdict)}
	if c.Remedy != nil || c.Case == successorClaimsMark {
		p.Notes = append(p.Notes, guaranteesNotes(fence, c)...)
	}
	return p
}

// guaranteesNotes say, a line each, which guarantees held in c and
// whether the destination gives them.
func guaranteesNotes(fence string, c *CaseResult) []string {
	held := func(ok bool) string {
		if ok {
			return "held"
		}
		return "did not hold"
	}
	order := "The fence gives it."
	if fence == "off" {
		order = "This destination, which checks no token, does not give it."
	}
	return []string{
		fmt.Sprintf("Token order, no write accepted below the mark: %s. %s", held(c.Guarantees.TokenOrder), order),
		fmt.Sprintf("Mutual exclusion, one holder's effects at a time: %s. No fence gives it.", held(c.Guarantees.MutualExclusion)),
	}
}

// writeStep draws a write and the destination's committed state after it.
func writeStep(p *timeline.Panel, at timeline.Moment, s step) {
	w := s.write
	e := timeline.Event{Lane: s.worker, At: at, Outcome: timeline.Accepted, Reaches: destinationLane,
		Label: fmt.Sprintf("write, token %d", w.Token), Result: "accepted",
		Title: fmt.Sprintf("%s writes with token %d: %s; the destination's mark is %d after it", s.worker, w.Token, w.Result, w.After.Mark)}
	if w.Op == claimMarkOp {
		e.Label, e.Result = fmt.Sprintf("claim the mark, token %d", w.Token), "accepted: no effect"
		e.Title = fmt.Sprintf("%s claims the destination's mark with token %d before it works: %s; the mark is %d after it, and no write took effect",
			s.worker, w.Token, w.Result, w.After.Mark)
	}
	switch {
	case w.Result != Accepted:
		e.Outcome, e.Result = timeline.Refused, "refused: "+w.Reason
		if w.Reason == ReasonStaleToken {
			e.Result = fmt.Sprintf("refused: %s, %d < mark %d", w.Reason, w.Token, w.After.Mark)
		}
	case s.stale:
		e.Result = fmt.Sprintf("accepted, though token %d was granted", s.holder)
		p.Rules = append(p.Rules, timeline.Rule{At: at, Label: "stale write accepted",
			Title: fmt.Sprintf("the destination accepted %s's write with token %d after the cluster had granted token %d", s.worker, w.Token, s.holder)})
	}
	p.Events = append(p.Events, e)
	if w.Result == Accepted {
		p.Values = append(p.Values, timeline.Value{Lane: destinationLane, From: at,
			Text:  fmt.Sprintf("mark %d · %s", w.After.Mark, plural(w.After.Writes, "write")),
			Title: fmt.Sprintf("the case's key after %s's write: mark %d, %s taken effect", s.worker, w.After.Mark, plural(w.After.Writes, "write"))})
	}
}

// lockRefusalTitle says why the cluster refused a lock attempt.
func lockRefusalTitle(s step) string {
	switch s.reason {
	case ReasonLockHeld:
		return s.worker + " asks for the lock and is refused at once: another session's key is older"
	case ReasonNoQuorum:
		return s.worker + " asks for the lock and gets no answer in time: without a majority the cluster grants nothing"
	case ReasonTimeout:
		return s.worker + " asks for the lock and gets no answer in time, though the cluster has a leader"
	}
	return s.worker + " is refused the lock: " + s.reason
}

// aboutScenario is the case's one line from the case table, as a
// sentence.
func aboutScenario(name string) string {
	about := scenarioAbout(name)
	if about == "" {
		return ""
	}
	return strings.ToUpper(about[:1]) + about[1:] + "."
}

// plural is n and noun, in the plural unless n is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
