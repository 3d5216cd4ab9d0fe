package lockservicelab

// This file holds a case's timeline: the events in the order the runner
// saw them, for the text drawing.

import "fmt"

// event is one row of the timeline: who, and what.
type event struct {
	column string // A, B, cluster or destination
	what   string
	bad    bool // a stale write accepted
}

func (c *CaseResult) note(column, format string, args ...any) {
	c.timeline = append(c.timeline, event{column: column, what: fmt.Sprintf(format, args...)})
}

func (c *CaseResult) noteCluster(format string, args ...any) { c.note("cluster", format, args...) }

func (c *CaseResult) noteWrite(w Write) {
	what := fmt.Sprintf("write with token %d", w.Token)
	if w.Op == claimMarkOp {
		what = fmt.Sprintf("claim the mark with token %d", w.Token)
	}
	c.note(w.Worker, "%s", what)
	dest := w.Result
	if w.Reason != "" {
		dest += " " + w.Reason
	}
	if w.Op == claimMarkOp && w.Result == Accepted {
		dest += fmt.Sprintf(": mark %d, no effect", w.After.Mark)
	}
	stale := w.Result == Accepted && w.Op == "" && w.Token < c.highestGranted
	if stale {
		dest += fmt.Sprintf(": STALE, token %d was already granted", c.highestGranted)
	}
	c.timeline = append(c.timeline, event{column: "destination", what: dest, bad: stale})
}
