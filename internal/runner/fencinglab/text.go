package fencinglab

// This file draws a report as a timeline a learner reads at a glance: one
// row per event, a column for each worker, the queue and the destination,
// and a marker on every row where something was refused, replayed, in
// conflict or rolled back.

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fencelab/fencelab/internal/gate"
)

// legend explains the columns once, above every case.
const legend = `destination = committed mark/units/receipts, read through a separate connection
>> marks a call or finish that was refused, replayed, in conflict or rolled back`

// Text draws result, a Report, as one timeline per case.
func (e *experiment) Text(w io.Writer, result any) error {
	rep, ok := result.(Report)
	if !ok {
		return fmt.Errorf("fencing: cannot draw a %T", result)
	}
	var b strings.Builder
	b.WriteString(legend + "\n")
	for _, c := range rep.Cases {
		b.WriteString("\n")
		drawCase(&b, c)
	}
	// tabwriter pads the empty cells at the end of a row; drop that.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

func drawCase(b *strings.Builder, c CaseReport) {
	fmt.Fprintf(b, "%s (destination contract %s)\n  %s\n", c.Case, c.DestinationContract, aboutCase(c.Case))

	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	row := func(mark string, tick int64, who, what, queue, dest string) {
		a, bcell := what, ""
		if who == workerB {
			a, bcell = "", what
		}
		fmt.Fprintf(tw, "%s\t%4d\t%s\t%s\t%s\t%s\n", mark, tick, a, bcell, queue, dest)
	}
	fmt.Fprintf(tw, "\ttick\tA (pid %d)\tB (pid %d)\tqueue %s\tdestination\n", c.OldWorkerPid, c.CoordinatorPid, jobID)

	for i, cl := range c.QueueClaims {
		dest := ""
		if i == 0 { // every case calls the destination at least twice
			dest = stateCell(c.Attempts[0].Before)
		}
		row("", cl.Tick, cl.Worker, fmt.Sprintf("claim: fence %d, expires %d", cl.Fence, cl.ExpiresAt),
			fmt.Sprintf("%s fence %d running", cl.Worker, cl.Fence), dest)
		if cl.Worker == workerA {
			row("", cl.Tick, workerA, "read "+jobID+", pause", "", "")
		}
	}
	for _, at := range c.Attempts {
		dest := stateCell(at.After)
		if at.UncommittedFailureView != nil {
			dest += fmt.Sprintf(" (the failing transaction saw %s)", stateCell(*at.UncommittedFailureView))
		}
		row(marker(string(at.Result), string(gate.Applied)), at.Tick, at.Worker,
			fmt.Sprintf("call fence %d, %s +%d: %s", at.Fence, at.Operation, at.Units, word(string(at.Result), string(gate.Applied))),
			queueCell(at.QueueAfterDestination), dest)
	}
	f := c.OldWorkerFinish
	row(marker(f.Result, "completed"), f.Tick, workerA,
		fmt.Sprintf("finish fence %d: %s", f.Fence, word(f.Result, "completed")), "", "")
	row("", f.Tick, workerA, fmt.Sprintf("exit %d", c.OldWorkerExit.Code), "", "")
	f = c.NewWorkerFinish
	q := c.QueueFinal
	row(marker(f.Result, "completed"), f.Tick, workerB,
		fmt.Sprintf("finish fence %d: %s", f.Fence, word(f.Result, "completed")),
		queueCell(QueueRow{State: q.State, Worker: q.Worker, Fence: q.Fence}), stateCell(c.DestinationFinal))
	tw.Flush()

	d := c.DestinationFinal
	fmt.Fprintf(b, "  final: destination mark %d, units %d, receipts %d; queue %s %s by %s with fence %d, %d claims\n",
		d.HighestFence, d.Units, d.Receipts, q.Job, q.State, q.Worker, q.Fence, q.Claims)
}

// marker is ">>" for every result but the ordinary one.
func marker(result, ordinary string) string {
	if result == ordinary {
		return ""
	}
	return ">>"
}

// word shouts every result but the ordinary one.
func word(result, ordinary string) string {
	if result == ordinary {
		return result
	}
	return strings.ToUpper(result)
}

func stateCell(s gate.State) string {
	return fmt.Sprintf("%d/%d/%d", s.HighestFence, s.Units, s.Receipts)
}

func queueCell(r QueueRow) string {
	return fmt.Sprintf("%s fence %d %s", r.Worker, r.Fence, r.State)
}
