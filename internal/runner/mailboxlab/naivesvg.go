package mailboxlab

// This file draws the naive command's run: both workers read msg-1 NEW
// before either writes, both writes succeed, and the row on disk names
// only the last writer while both believe they own the message.

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// CheckFormat refuses --format svg in race mode: its rounds have no
// order to draw, only counts.
func (e *naiveExperiment) CheckFormat(format string) error { return e.raceFlags.checkFormat(format) }

func (f *raceFlags) checkFormat(format string) error {
	if format == "svg" && f.race {
		return cli.Usagef("--format svg draws the two-worker story, and --race has no order to draw: leave out --race or --format svg")
	}
	return nil
}

// SVG draws result, a naiveResult, as one panel: one handshake step per
// read and write, the row's owner on disk after each write.
func (e *naiveExperiment) SVG(w io.Writer, result any) error {
	res, ok := result.(naiveResult)
	if !ok {
		return fmt.Errorf("naive: cannot draw a %T", result)
	}
	const id = "msg-1"
	var names []string
	for _, wk := range res.Workers {
		names = append(names, wk.Worker)
	}
	steps := int64(2 * len(res.Workers))
	p := timeline.Panel{
		Title: id + ": read, decide in Go, then write",
		About: "Both workers read the row before either writes; nothing in the write checks what they read.",
		Axis:  stepAxis, Lanes: lanes(id, names...),
	}
	p.Axis.To = steps + 1 // the axis starts at step 0, where msg-1 is NEW
	p.Values = append(p.Values, rowValue(id, timeline.At(0), mailbox.New, "", 0, 0))
	// Handshake 1: every worker reads, in turn; handshake 2: every worker
	// that decided to claim writes, in turn.
	for i, wk := range res.Workers {
		read := timeline.At(int64(i + 1))
		p.Events = append(p.Events, timeline.Event{Lane: wk.Worker, At: read, Outcome: timeline.Noted, Reaches: rowLane,
			Label: "read " + id, Result: fmt.Sprintf("saw %s: decides to claim", wk.Saw)})
		if !wk.DecidedToClaim {
			continue
		}
		write := timeline.At(int64(len(res.Workers) + i + 1))
		result := "no row changed"
		if wk.Believes {
			result = "ok: believes it owns " + id
		}
		p.Events = append(p.Events, timeline.Event{Lane: wk.Worker, At: write, Outcome: timeline.Accepted, Reaches: rowLane,
			Label: "write claim", Result: result})
		p.Spans = append(p.Spans, timeline.Span{Lane: wk.Worker, Kind: timeline.Wait, From: read, To: write,
			Title: fmt.Sprintf("%s holds the decision it made from reading %s; the row may change meanwhile", wk.Worker, wk.Saw)})
		if wk.Believes {
			p.Spans = append(p.Spans, timeline.Span{Lane: wk.Worker, Kind: timeline.Lease, From: write, To: timeline.At(p.Axis.To),
				Label: "believes it owns " + id + " (no token)",
				Title: fmt.Sprintf("%s believes it owns %s from step %d to the end", wk.Worker, id, write.At)})
		}
		after := res.rowAfter[i]
		p.Values = append(p.Values, rowValue(id, write, after.State, after.Owner, after.Token, after.RetryCount))
	}
	p.Notes = []string{fmt.Sprintf("At the end: %d workers believe they own %s; the disk names %s.", res.Believers, id, res.OwnerOnDisk)}
	return drawOne(w, "fencelab naive",
		"Two worker processes, each with its own connection, claim one message by reading, deciding in Go and writing; pipes order the steps.", p)
}
