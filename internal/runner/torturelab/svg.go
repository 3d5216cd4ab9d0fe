package torturelab

// This file draws a torture run as a summary picture: a lane per worker
// slot, the claims its processes won over time (and the takeovers among
// them) counted in bins of wall-clock milliseconds, every kill -9, and
// under it all the audit's counts. A run with a violation gets a line
// where the first one happened. A run with an etcd lock (--lock etcd)
// counts the locks granted instead of claims, and has a lane more, for
// the kills of the cluster's members.
//
// Unlike the other pictures, this one is not the same from run to run:
// the seed fixes the plan, but the operating system decides who wins
// which claim and when. What the picture leaves out keeps it free of
// anything else that changes: no pids, no wall-clock instants (only
// milliseconds since the run began), counts in fixed bins, and lanes in
// slot order.

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// story is what a run keeps for its picture.
type story struct {
	beganMs, endedMs int64 // on the workers' records' clock
	logs             []audit.Log
	kills            []killMark
	members          []killMark // the members killed (--lock etcd), worker naming each
	findings         audit.Findings
}

// killMark is one kill -9 as it was done.
type killMark struct {
	atMs              int64
	slot              int
	worker, restartAs string
}

// membersLane is the lane of the cluster's members, in an etcd run.
const membersLane = "members"

// bins is how many columns of counts each lane gets.
const bins = 60

// Torture's tally series.
const (
	seriesClaims = iota
	seriesTakeovers
)

// SVG draws result, a *result or an *etcdResult, as one panel.
func (f *flags) SVG(w io.Writer, drawn any) error {
	switch res := drawn.(type) {
	case *result:
		return timeline.WriteSVG(w, figure(res))
	case *etcdResult:
		return timeline.WriteSVG(w, etcdFigure(res))
	}
	return fmt.Errorf("torture: cannot draw a %T", drawn)
}

// figure builds the picture of res.
func figure(res *result) timeline.Figure {
	p := summaryPanel(res.story, res.Plan, res.Processes, res.Seed)
	p.Title = fmt.Sprintf("%d worker processes, %d messages, leases of %d ms", res.Processes, res.Messages, res.LeaseMs)
	p.Notes = notes(res)
	return timeline.Figure{
		Title:  "fencelab torture",
		About:  "Claims, takeovers and kills over time, per worker slot; then what the audit of the ledger found.",
		Series: []string{"claims that began a generation", "of them, takeovers"},
		Panels: []timeline.Panel{p},
	}
}

// etcdFigure builds the picture of an etcd run: the locks granted, the
// kills of workers and of members, and the audit of the fenced store.
func etcdFigure(res *etcdResult) timeline.Figure {
	st := res.story
	p := summaryPanel(st, res.Plan.runPlan, res.Processes, res.Seed)
	p.Title = fmt.Sprintf("%d worker processes, %d messages, etcd leases of %d s", res.Processes, res.Messages, res.TTLSeconds)
	p.Lanes = append([]timeline.Lane{{ID: membersLane, Label: "etcd members", Note: "each restarted"}}, p.Lanes...)
	for _, k := range st.members {
		at := timeline.At(min(max(k.atMs-st.beganMs, 0), p.Axis.To))
		p.Events = append(p.Events, timeline.Event{Lane: membersLane, At: at, Outcome: timeline.Killed,
			Title: fmt.Sprintf("kill -9 of %s at %d ms; it restarts from its data", k.worker, at.At)})
	}
	a := res.Audit
	stale := 0
	if a.StaleWritesAccepted != nil {
		stale = *a.StaleWritesAccepted
	}
	p.Notes = []string{
		fmt.Sprintf("Audit of the store: stale writes accepted %d · stale completes accepted %d · double completions %d · tokens not increasing %d · integrity_check %s",
			stale, a.StaleCompletesAccepted, a.DoubleCompletions, a.TokensNotIncreasing, a.IntegrityCheck),
		fmt.Sprintf("Also counted: lost %d · unfinished %d.", a.Lost, a.Unfinished),
		fenceLine(res.Fence, a),
		fmt.Sprintf("The store accepted %d writes and %d completions; %d locks granted, %d pauses past the lease; %d worker kills, %d member kills.",
			res.Writes, res.Completes, res.Claims, res.PausesPastLease, res.Killed, res.MembersKilled),
		"One seed, one plan; the operating system's timing differs, and so does this picture, from run to run.",
	}
	return timeline.Figure{
		Title:  "fencelab torture --lock etcd",
		About:  "Locks granted by a three-member etcd cluster and kills over time, per worker slot; then what the audit of the fenced store found.",
		Series: []string{"locks granted"},
		Panels: []timeline.Panel{p},
	}
}

// fenceLine says how an etcd run's fence was tested: the writes the store
// refused as stale, or that it never was.
func fenceLine(fence string, a etcdAudit) string {
	if !a.FenceTested {
		return fmt.Sprintf("Fence %s: %s.", fence, fenceUntested)
	}
	return fmt.Sprintf("Fence %s: the store refused %d writes as stale; stale writes are judged against the locks granted before each was accepted.", fence, a.Refused.StaleToken)
}

// summaryPanel draws what every torture run has: a lane per worker slot
// named after its processes, what they won counted over time, every
// kill -9, and a line at the first violation.
func summaryPanel(st story, plan runPlan, processes int, seed int64) timeline.Panel {
	length := st.endedMs - st.beganMs
	// ms per bin: a run too short to measure still gets 1 ms columns.
	width := max((length+bins-1)/bins, 1)
	p := timeline.Panel{
		About: fmt.Sprintf("Seed %d: the plan is the seed's, the timing the operating system's. Each column counts %d ms. "+
			"The scale at each lane's right end reads a column's height; the kills stand above the columns.", seed, width),
		Axis: timeline.Axis{Unit: "ms", Clock: "wall clock since the run began", From: 0, To: width * bins, Exact: true},
	}
	names := slotNames(plan, processes)
	for slot := range processes {
		p.Lanes = append(p.Lanes, timeline.Lane{ID: slotLane(slot), Label: names[slot][0], Note: restarts(names[slot])})
	}
	p.Tallies = tallies(st, processes, width)
	for _, k := range st.kills {
		at := timeline.At(min(max(k.atMs-st.beganMs, 0), length))
		p.Events = append(p.Events, timeline.Event{Lane: slotLane(k.slot), At: at, Outcome: timeline.Killed,
			Title: fmt.Sprintf("kill -9 of %s at %d ms; it comes back as %s", k.worker, at.At, k.restartAs)})
	}
	if !st.findings.Clean() {
		v := st.findings.Violations[0]
		at := violationAt(st, v) - st.beganMs
		p.Rules = append(p.Rules, timeline.Rule{At: timeline.At(min(max(at, 0), width*bins)),
			Label: "first violation: " + kindWords(v) + messageSuffix(v.ID),
			Title: v.String()})
	}
	return p
}

func slotLane(slot int) string { return fmt.Sprintf("slot-%d", slot) }

// slotNames lists, per slot, the owner names its processes took, first
// the first process's, each once.
func slotNames(plan runPlan, processes int) [][]string {
	names := make([][]string, processes)
	for slot := range names {
		names[slot] = []string{plan.Owners[slot]}
	}
	for _, k := range plan.Kills {
		if !slices.Contains(names[k.slot], k.RestartAs) {
			names[k.slot] = append(names[k.slot], k.RestartAs)
		}
	}
	return names
}

// restarts is a lane's note: the other names its slot's processes took.
func restarts(names []string) string {
	if len(names) < 2 {
		return ""
	}
	return "then " + strings.Join(names[1:], ", ")
}

// tallies counts, per slot and bin, the claims that began a generation
// and the takeovers among them, from every process's records.
func tallies(st story, slots int, width int64) []timeline.Tally {
	claims := make([][bins]int, slots)
	takeovers := make([][bins]int, slots)
	for _, log := range st.logs {
		if log.Slot < 0 || log.Slot >= slots {
			continue
		}
		for _, rec := range log.Records {
			if rec.Op != "claim" || rec.Result != audit.Claimed {
				continue
			}
			b := min(max((rec.At-st.beganMs)/width, 0), bins-1)
			claims[log.Slot][b]++
			if rec.Takeover {
				takeovers[log.Slot][b]++
			}
		}
	}
	var out []timeline.Tally
	for slot := range slots {
		for b := range int64(bins) {
			from, to := timeline.At(b*width), timeline.At((b+1)*width)
			if n := claims[slot][b]; n > 0 {
				out = append(out, timeline.Tally{Lane: slotLane(slot), From: from, To: to, Series: seriesClaims, Count: n,
					Title: fmt.Sprintf("%d claims from %d to %d ms", n, from.At, to.At)})
			}
			if n := takeovers[slot][b]; n > 0 {
				out = append(out, timeline.Tally{Lane: slotLane(slot), From: from, To: to, Series: seriesTakeovers, Count: n,
					Title: fmt.Sprintf("%d takeovers from %d to %d ms", n, from.At, to.At)})
			}
		}
	}
	return out
}

// violationAt is when, on the records' clock, violation v happened: the
// accepted write that broke the promise, as near as the records tell;
// the end of the run for what only the ledger at the end shows (lost,
// stuck, unfinished, a damaged file).
func violationAt(st story, v audit.Violation) int64 {
	switch v.Kind {
	case audit.TokenNotIncreasing:
		return repeatedTokenAt(st, v.ID)
	case audit.StaleWrite:
		accepted := func(rec audit.Record) bool { return rec.Op == "write" && rec.Result == "accepted" }
		if at, ok := lastAt(st, v.ID, accepted); ok {
			return at
		}
	case audit.DoubleCompletion, audit.StaleComplete, audit.TerminalLeft, audit.RetryBudget:
		ended := func(rec audit.Record) bool {
			return rec.Result == audit.Completed || rec.Result == audit.DeadLettered || rec.Result == audit.Retried
		}
		if at, ok := lastAt(st, v.ID, ended); ok {
			return at
		}
	}
	return st.endedMs
}

// lastAt is the latest instant of a record of message id that match
// accepts, if there is one.
func lastAt(st story, id string, match func(audit.Record) bool) (last int64, ok bool) {
	for _, log := range st.logs {
		for _, rec := range log.Records {
			if rec.ID == id && match(rec) {
				last, ok = max(last, rec.At), true
			}
		}
	}
	return last, ok
}

// repeatedTokenAt is when, in time order, a claim on message id first
// won a token some claim had won before it.
func repeatedTokenAt(st story, id string) int64 {
	type won struct {
		at, token int64
		id        string
	}
	var claims []won
	for _, log := range st.logs {
		for _, rec := range log.Records {
			if rec.Op == "claim" && rec.Result == audit.Claimed {
				claims = append(claims, won{rec.At, rec.Token, rec.ID})
			}
		}
	}
	slices.SortStableFunc(claims, func(a, b won) int { return cmp.Compare(a.at, b.at) })
	seen := map[int64]bool{}
	for _, c := range claims {
		if seen[c.token] && c.id == id {
			return c.at
		}
		seen[c.token] = true
	}
	return st.endedMs
}

// kindWords is the kind of v in words, as the audit says it: the part of
// its sentence before the first colon.
func kindWords(v audit.Violation) string {
	kind, _, _ := strings.Cut(v.String(), ":")
	return kind
}

// messageSuffix names a violation's message, if it has one.
func messageSuffix(id string) string {
	if id == "" {
		return ""
	}
	return " (" + id + ")"
}

// notes are the lines under the axis: the audit's counts, the totals, and
// why the picture differs from run to run.
func notes(res *result) []string {
	a := res.Audit
	return []string{
		fmt.Sprintf("Audit: double completions %d · stale completes accepted %d · tokens not increasing %d · lost %d · stuck %d · integrity_check %s",
			a.DoubleCompletions, a.StaleCompletesAccepted, a.TokensNotIncreasing, a.Lost, a.Stuck, a.IntegrityCheck),
		fmt.Sprintf("Also counted: terminal state left %d · retry budget broken %d · unfinished %d.", a.TerminalLeft, a.RetryBudgetBroken, a.Unfinished),
		fmt.Sprintf("Told to the workers: %d claims (%d takeovers), %d renewals; the ledger ends with %d DONE, %d DEAD; %d kills.",
			res.Claims, res.Takeovers, res.Renewals, res.Completes, res.DeadLetters, res.Killed),
		"One seed, one plan; the operating system's timing differs, and so does this picture, from run to run.",
	}
}
