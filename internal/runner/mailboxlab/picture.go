package mailboxlab

// This file holds what the mailbox commands' pictures share: a lane per
// worker, a lane for the message's committed row, and the few words that
// say what a row holds. Each command draws its own story in its own file
// (naivesvg.go, claimsvg.go, leasesvg.go, deadlettersvg.go).

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// rowLane is the id of the lane that follows the message's row.
const rowLane = "row"

// The axes of the mailbox pictures.
var (
	// stepAxis is the axis of naive and claim, whose story has no clock:
	// the runner orders the two processes by handshakes, one step each.
	stepAxis = timeline.Axis{Unit: "step", Clock: "handshake order, no clock"}
	// minuteAxis is the axis of lease and deadletter.
	minuteAxis = timeline.Axis{Unit: "minute", Clock: "logical clock"}
)

// lanes returns a lane per worker and, last, the lane of message id's
// row.
func lanes(id string, workers ...string) []timeline.Lane {
	var ls []timeline.Lane
	for _, w := range workers {
		ls = append(ls, timeline.Lane{ID: w, Label: w})
	}
	return append(ls, timeline.Lane{ID: rowLane, Label: id, Note: "row in ledger.db", Store: true})
}

// rowText says in a few words what a message's row holds, and rowTitle
// says it in full for the hover text.
func rowText(state mailbox.State, owner string, token int64, retries int) string {
	s := string(state)
	if owner != "" {
		s += " · " + owner
	}
	if token != 0 {
		s += fmt.Sprintf(" · token %d", token)
	}
	if retries > 0 {
		s += fmt.Sprintf(" · %d retr%s", retries, plural(retries, "y", "ies"))
	}
	return s
}

func rowTitle(id string, state mailbox.State, owner string, token int64, retries int) string {
	s := fmt.Sprintf("%s's committed row: state %s", id, state)
	if owner != "" {
		s += ", claim_owner " + owner
	}
	if token != 0 {
		s += fmt.Sprintf(", fencing_token %d", token)
	}
	return s + fmt.Sprintf(", retry_count %d", retries)
}

// rowValue is the row's committed state from moment m on.
func rowValue(id string, m timeline.Moment, state mailbox.State, owner string, token int64, retries int) timeline.Value {
	return timeline.Value{Lane: rowLane, From: m, Text: rowText(state, owner, token, retries),
		Title: rowTitle(id, state, owner, token, retries)}
}

// outcomeMark is the mark of a call whose answer was out: Accepted unless
// it was refused.
func outcomeMark(result string) timeline.Outcome {
	if result == "refused" {
		return timeline.Refused
	}
	return timeline.Accepted
}

// answer is the second line of a call's label: its result word and,
// after a refusal, the reason.
func answer(result, reason string) string {
	if reason != "" {
		return result + ": " + reason
	}
	return result
}

func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// drawOne writes the figure whose one panel is p, titled for command.
func drawOne(w io.Writer, title, about string, panels ...timeline.Panel) error {
	return timeline.WriteSVG(w, timeline.Figure{Title: title, About: about, Panels: panels})
}
