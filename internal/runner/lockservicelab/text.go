package lockservicelab

// This file draws a run as one timeline per case: a row per event, a
// column for each worker, the cluster and the destination, and a marker
// on the row of a stale write the destination accepted.

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// columns are the timeline's columns, left to right.
var columns = []string{"A", "B", "cluster", "destination"}

// Text draws result, a *Result, as one timeline per case.
func (f *flags) Text(w io.Writer, result any) error {
	res, ok := result.(*Result)
	if !ok {
		return fmt.Errorf("lockservice: cannot draw a %T", result)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lockservice: %d etcd members, destination fence %s; tokens are lock-key revisions\n", res.Cluster.Members, res.Fence)
	for _, name := range []string{tokenOrder, mutualExclusion} {
		gives := "does not give"
		if _, ok := res.FenceGives[name]; ok {
			gives = "gives"
		}
		fmt.Fprintf(&b, "the destination %s %s (%s)\n", gives, strings.ReplaceAll(name, "_", " "), guaranteeMeanings[name])
	}
	b.WriteString(">> marks a write the destination accepted after a later holder had the lock\n")
	for _, c := range res.Cases {
		b.WriteString("\n")
		drawCase(&b, c)
		if c.Remedy != nil {
			fmt.Fprintf(&b, "\n%s, remedied: ", c.Case)
			drawCase(&b, c.Remedy)
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

func drawCase(b *strings.Builder, c *CaseResult) {
	fmt.Fprintf(b, "%s (leases of %d s)\n  %s\n", c.Case, c.TTLSeconds, scenarioAbout(c.Case))
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\t%s\n", strings.Join(columns, "\t"))
	for _, e := range c.timeline {
		cells := make([]string, len(columns))
		for i, col := range columns {
			if col == e.column {
				cells[i] = e.what
			}
		}
		mark := ""
		if e.bad {
			mark = ">>"
		}
		fmt.Fprintf(tw, "%s\t%s\n", mark, strings.Join(cells, "\t"))
	}
	tw.Flush()
	d := c.DestinationFinal
	fmt.Fprintf(b, "  guarantees: token order %s, mutual exclusion %s\n", heldWord(c.Guarantees.TokenOrder), heldWord(c.Guarantees.MutualExclusion))
	fmt.Fprintf(b, "  final: destination mark %d, %d writes took effect; double effects %d, stale writes accepted %d: %s\n",
		d.Mark, d.Writes, c.DoubleEffects, c.StaleWritesAccepted, strings.ToUpper(c.Verdict))
}

// heldWord says whether a guarantee held.
func heldWord(held bool) string {
	if held {
		return "held"
	}
	return "broken"
}
