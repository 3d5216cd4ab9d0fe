package torturelab

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// began is the wall-clock instant the made-up runs below begin at.
const began = 1_700_000_000_000

// madeUpRun is a two-slot run told by hand: worker-a claims msg-1 and
// msg-2, is killed and comes back as worker-a2, which takes msg-2 over;
// worker-b claims msg-1 after worker-a's lease, and both complete msg-1.
func madeUpRun(findings audit.Findings) *result {
	logs := []audit.Log{
		{Owner: "worker-a", Slot: 0, Start: 1, Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 1, Result: audit.Claimed, At: began + 100},
			{Op: "claim", ID: "msg-2", Token: 2, Result: audit.Claimed, At: began + 150},
			{Op: "complete", ID: "msg-1", Token: 1, Result: audit.Completed, At: began + 700},
		}},
		{Owner: "worker-a2", Slot: 0, Start: 2, Records: []audit.Record{
			{Op: "claim", ID: "msg-2", Token: 4, Result: audit.Claimed, Takeover: true, At: began + 800},
		}},
		{Owner: "worker-b", Slot: 1, Start: 1, Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 3, Result: audit.Claimed, Takeover: true, At: began + 400},
			{Op: "complete", ID: "msg-1", Token: 3, Result: audit.Completed, At: began + 450},
		}},
	}
	res := &result{Seed: 7, Processes: 2, Messages: 2, LeaseMs: 40, Audit: findings,
		Plan: runPlan{Owners: []string{"worker-a", "worker-b", "worker-a2"},
			Kills: []plannedKill{{Worker: "worker-a", RestartAs: "worker-a2", slot: 0, start: 2}}}}
	res.story = story{beganMs: began, endedMs: began + 1000, logs: logs, findings: findings,
		kills: []killMark{{atMs: began + 750, slot: 0, worker: "worker-a", restartAs: "worker-a2"}}}
	return res
}

var doubleCompletion = audit.Findings{DoubleCompletions: 1, IntegrityCheck: "ok",
	Violations: []audit.Violation{{Kind: audit.DoubleCompletion, ID: "msg-1",
		Detail: "msg-1 was completed twice: by worker-b with token 3, and by worker-a with token 1"}}}

// TestTortureSummaryMarksTheFirstViolation: a run whose audit found a
// violation gets a line at the moment it happened (here the second
// complete of msg-1, 700 ms in), named in words.
func TestTortureSummaryMarksTheFirstViolation(t *testing.T) {
	f := figure(madeUpRun(doubleCompletion))
	rules := f.Panels[0].Rules
	assert.Assert(t, cmp.Len(rules, 1), "a run with a violation must mark the first one")
	assert.Equal(t, rules[0].At, timeline.At(700), "the line must stand where the second complete was accepted")
	assert.Equal(t, rules[0].Label, "first violation: double completion (msg-1)")

	var b bytes.Buffer
	assert.NilError(t, timeline.WriteSVG(&b, f))
	wellFormed(t, b.String())
	assert.Check(t, cmp.Contains(b.String(), "first violation: double completion (msg-1)"))
	if path := os.Getenv("FENCELAB_PICTURE"); path != "" {
		// A way to look at the picture: FENCELAB_PICTURE=/tmp/v.svg go test -run Violation
		assert.NilError(t, os.WriteFile(path, b.Bytes(), 0o644))
	}
}

// TestCleanTortureSummaryHasNoViolationLine: a clean audit draws no
// violation line, and its counts read 0.
func TestCleanTortureSummaryHasNoViolationLine(t *testing.T) {
	f := figure(madeUpRun(audit.Findings{IntegrityCheck: "ok"}))
	assert.Check(t, cmp.Len(f.Panels[0].Rules, 0))
	assert.Check(t, cmp.Contains(f.Panels[0].Notes[0], "double completions 0"))
}

// TestTortureSummaryCountsEveryClaimOnItsSlot: each slot's tallies add up
// to the claims its processes were told they won (the replacement's on
// the slot of the process it replaced), and the takeovers among them;
// the kill is a mark on its slot.
func TestTortureSummaryCountsEveryClaimOnItsSlot(t *testing.T) {
	p := figure(madeUpRun(audit.Findings{IntegrityCheck: "ok"})).Panels[0]
	sum := map[string][2]int{}
	for _, ty := range p.Tallies {
		s := sum[ty.Lane]
		s[ty.Series] += ty.Count
		sum[ty.Lane] = s
	}
	assert.DeepEqual(t, sum, map[string][2]int{"slot-0": {3, 1}, "slot-1": {1, 1}})
	assert.Equal(t, p.Lanes[0].Note, "then worker-a2")
	assert.Assert(t, cmp.Len(p.Events, 1))
	assert.Equal(t, p.Events[0].Lane, "slot-0")
	assert.Equal(t, p.Events[0].Outcome, timeline.Killed)
	assert.Equal(t, p.Events[0].At, timeline.At(750))
}

// wellFormed fails the test unless doc is one well-formed XML document.
func wellFormed(t *testing.T, doc string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		assert.NilError(t, err, "the picture is not well-formed XML")
	}
}

// TestEtcdTortureSummaryMarksMemberKillsAndTheStaleWrite: the summary of
// a --lock etcd run has a lane for the cluster's members with each kill
// where it was done, counts the locks granted on the slots, and marks the
// first violation, a stale write, where the store accepted it.
func TestEtcdTortureSummaryMarksMemberKillsAndTheStaleWrite(t *testing.T) {
	stale := 1
	findings := audit.Findings{IntegrityCheck: "ok", StaleWritesAccepted: &stale,
		Violations: []audit.Violation{{Kind: audit.StaleWrite, ID: "msg-1",
			Detail: "msg-1: the store accepted worker-a's write with token 2 after it had accepted worker-b's write with token 5"}}}
	logs := []audit.Log{
		{Owner: "worker-a", Slot: 0, Start: 1, Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 2, Result: audit.Claimed, At: began + 100},
			{Op: "pause", ID: "msg-1", Token: 2, PauseMs: 1500, PastLease: true, At: began + 120},
			{Op: "write", ID: "msg-1", Token: 2, Result: "accepted", At: began + 1700},
		}},
		{Owner: "worker-b", Slot: 1, Start: 1, Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 5, Result: audit.Claimed, At: began + 1300},
			{Op: "write", ID: "msg-1", Token: 5, Result: "accepted", At: began + 1350},
			{Op: "complete", ID: "msg-1", Token: 5, Result: audit.Completed, At: began + 1360},
		}},
	}
	res := &etcdResult{Seed: 4, Processes: 2, Messages: 1, TTLSeconds: 1, Audit: etcdAudit{Findings: findings},
		Plan: etcdPlan{runPlan: runPlan{Owners: []string{"worker-a", "worker-b"}}}}
	res.story = story{beganMs: began, endedMs: began + 2000, logs: logs, findings: findings,
		members: []killMark{{atMs: began + 600, worker: "member-2"}}}

	f := etcdFigure(res)

	p := f.Panels[0]
	assert.Equal(t, p.Lanes[0].ID, membersLane, "the members' lane comes first")
	assert.Assert(t, cmp.Len(p.Events, 1), "one member kill, no worker kill")
	assert.Equal(t, p.Events[0].Lane, membersLane)
	assert.Equal(t, p.Events[0].Outcome, timeline.Killed)
	assert.Equal(t, p.Events[0].At, timeline.At(600), "the member kill must stand where it was done")
	granted := 0
	for _, ty := range p.Tallies {
		granted += ty.Count
	}
	assert.Equal(t, granted, 2, "the locks granted, counted on the slots")
	assert.Assert(t, cmp.Len(p.Rules, 1), "a run with a stale write must mark it")
	assert.Equal(t, p.Rules[0].At, timeline.At(1700), "the line must stand where the stale write was accepted")
	assert.Equal(t, p.Rules[0].Label, "first violation: stale write accepted (msg-1)")
	assert.Check(t, cmp.Contains(p.Notes[0], "stale writes accepted 1"))
	var b bytes.Buffer
	assert.NilError(t, timeline.WriteSVG(&b, f))
	wellFormed(t, b.String())
}

// TestTheSummarysAxisHasSixtyWholeColumns: the axis runs from the run's
// start in sixty columns of whole milliseconds, just long enough for the
// run (a run shorter than a millisecond still gets one per column).
func TestTheSummarysAxisHasSixtyWholeColumns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lengthMs, width int64 }{{600, 10}, {601, 11}, {660, 11}, {1, 1}, {0, 1}, {59, 1}, {61, 2}} {
		st := story{beganMs: began, endedMs: began + tc.lengthMs}
		p := summaryPanel(st, runPlan{Owners: []string{"worker-a"}}, 1, 7)
		assert.Check(t, cmp.Equal(p.Axis.From, int64(0)), "a run of %d ms: the axis's start", tc.lengthMs)
		assert.Check(t, cmp.Equal(p.Axis.To, 60*tc.width), "a run of %d ms: the axis's end, sixty columns of %d ms", tc.lengthMs, tc.width)
		assert.Check(t, cmp.Contains(p.About, fmt.Sprintf("Each column counts %d ms.", tc.width)), "a run of %d ms", tc.lengthMs)
	}
}

// TestMarksOutsideTheRunStandAtItsEdges: a kill recorded a little before
// the run's first instant (the clocks of two processes) stands at 0, one
// after its last at its end; so does a violation's line, which may stand
// anywhere on the axis.
func TestMarksOutsideTheRunStandAtItsEdges(t *testing.T) {
	t.Parallel()
	findings := audit.Findings{DoubleCompletions: 1, Violations: []audit.Violation{{Kind: audit.DoubleCompletion, ID: "msg-1", Detail: "twice"}}}
	for _, tc := range []struct {
		name             string
		killAt, complete int64
		wantKill, wantAt int64
	}{
		{"before", -5, -3, 0, 0},
		{"inside", 5, 7, 5, 7},
		{"after", 650, 700, 601, 660},
	} {
		st := story{beganMs: began, endedMs: began + 601, findings: findings,
			kills: []killMark{{atMs: began + tc.killAt, slot: 1, worker: "worker-b", restartAs: "worker-b2"}},
			logs: []audit.Log{{Owner: "worker-a", Records: []audit.Record{
				{Op: "complete", ID: "msg-1", Result: audit.Completed, At: began + tc.complete}}}}}
		p := summaryPanel(st, runPlan{Owners: []string{"worker-a", "worker-b"}}, 2, 7)
		assert.Assert(t, cmp.Len(p.Events, 1), tc.name)
		assert.Check(t, cmp.Equal(p.Events[0].At, timeline.At(tc.wantKill)), "%s: the kill's mark", tc.name)
		assert.Check(t, cmp.Equal(p.Events[0].Lane, "slot-1"), "%s: the kill's lane", tc.name)
		assert.Assert(t, cmp.Len(p.Rules, 1), tc.name)
		assert.Check(t, cmp.Equal(p.Rules[0].At, timeline.At(tc.wantAt)), "%s: the violation's line", tc.name)
		assert.Check(t, cmp.Equal(p.Rules[0].Label, "first violation: double completion (msg-1)"), tc.name)
	}
}

// TestAMemberKillOutsideTheRunStandsAtItsEdges: in an etcd run's picture
// a member killed before the run's first instant stands at 0, one killed
// after the axis ends at its end.
func TestAMemberKillOutsideTheRunStandsAtItsEdges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ at, want int64 }{{-5, 0}, {5, 5}, {700, 660}} {
		res := &etcdResult{Processes: 1, Audit: etcdAudit{Findings: audit.Findings{IntegrityCheck: "ok"}},
			Plan: etcdPlan{runPlan: runPlan{Owners: []string{"worker-a"}}}}
		res.story = story{beganMs: began, endedMs: began + 601, members: []killMark{{atMs: began + tc.at, worker: "member-1"}}}
		p := etcdFigure(res).Panels[0]
		assert.Assert(t, cmp.Len(p.Events, 1))
		assert.Check(t, cmp.Equal(p.Events[0].At, timeline.At(tc.want)), "a member killed %d ms into the run", tc.at)
	}
}

// TestAnEtcdSummaryCountsNoStaleWritesWhenNoneWereCounted: a store audit
// that did not count stale writes reads 0 of them, not a blank.
func TestAnEtcdSummaryCountsNoStaleWritesWhenNoneWereCounted(t *testing.T) {
	t.Parallel()
	res := &etcdResult{Processes: 1, Audit: etcdAudit{Findings: audit.Findings{IntegrityCheck: "ok"}}, Plan: etcdPlan{runPlan: runPlan{Owners: []string{"worker-a"}}}}
	p := etcdFigure(res).Panels[0]
	assert.Check(t, cmp.Contains(p.Notes[0], "stale writes accepted 0 ·"))
}

// TestASlotsLaneNamesEachOfItsProcessesOnce: a slot's lane is named after
// its first process and notes every other name its replacements took,
// once each, in order; a slot never killed has no note.
func TestASlotsLaneNamesEachOfItsProcessesOnce(t *testing.T) {
	t.Parallel()
	plan := runPlan{Owners: []string{"worker-a", "worker-b", "worker-c"}, Kills: []plannedKill{
		{RestartAs: "worker-a", slot: 0}, {RestartAs: "worker-c2", slot: 2}, {RestartAs: "worker-c2", slot: 2}, {RestartAs: "worker-c4", slot: 2}}}
	p := summaryPanel(story{beganMs: began, endedMs: began + 10}, plan, 3, 7)
	var got [][2]string
	for _, l := range p.Lanes {
		got = append(got, [2]string{l.Label, l.Note})
	}
	assert.Check(t, cmp.DeepEqual(got, [][2]string{{"worker-a", ""}, {"worker-b", ""}, {"worker-c", "then worker-c2, worker-c4"}}))
}

// TestTheSummaryDrawsOnlyTortureResults: the picture of a mailbox run and
// of an etcd run is a whole SVG document; anything else is an error.
func TestTheSummaryDrawsOnlyTortureResults(t *testing.T) {
	t.Parallel()
	var f flags
	for _, drawn := range []any{madeUpRun(audit.Findings{IntegrityCheck: "ok"}),
		&etcdResult{Processes: 1, Plan: etcdPlan{runPlan: runPlan{Owners: []string{"worker-a"}}}}} {
		var b bytes.Buffer
		assert.NilError(t, f.SVG(&b, drawn))
		assert.Check(t, cmp.Contains(b.String(), "<svg"), "the picture of a %T", drawn)
		wellFormed(t, b.String())
	}
	var b bytes.Buffer
	assert.ErrorContains(t, f.SVG(&b, "a run"), "torture: cannot draw a string")
	assert.Check(t, cmp.Equal(b.Len(), 0), "what a refused drawing wrote")
}

// TestEachClaimIsCountedInTheColumnOfItsInstant: a claim that began a
// generation counts in the column its instant falls in (a column of 10 ms
// holds instants 0 to 9 of it), a claim before the run in the first
// column and one after it in the last; a takeover counts in both series;
// a renewal, a refusal, a failed claim and a complete count in neither,
// and a record of a slot the run did not have is left out.
func TestEachClaimIsCountedInTheColumnOfItsInstant(t *testing.T) {
	t.Parallel()
	claim := func(at int64, result string, takeover bool) audit.Record {
		return audit.Record{Op: "claim", ID: "msg-1", Token: 1, Result: result, Takeover: takeover, At: began + at}
	}
	st := story{beganMs: began, endedMs: began + 600, logs: []audit.Log{
		{Owner: "worker-a", Slot: 0, Records: []audit.Record{
			claim(0, audit.Claimed, false), claim(9, audit.Claimed, true), claim(10, audit.Claimed, false),
			claim(-15, audit.Claimed, false), claim(599, audit.Claimed, true), claim(700, audit.Claimed, false),
			claim(30, audit.Renewed, false), claim(30, audit.Refused, true), claim(30, audit.Failed, false),
			{Op: "complete", ID: "msg-1", Token: 1, Result: audit.Completed, At: began + 30},
			{Op: "dead-letter", ID: "msg-1", Token: 1, Result: audit.Claimed, At: began + 30},
		}},
		{Owner: "worker-b", Slot: 1, Records: []audit.Record{claim(25, audit.Claimed, true)}},
		{Owner: "worker-x", Slot: 2, Records: []audit.Record{claim(40, audit.Claimed, false)}},
		{Owner: "worker-y", Slot: -1, Records: []audit.Record{claim(40, audit.Claimed, false)}},
	}}
	type column struct {
		Lane          string
		From, To      int64
		Series, Count int
		Title         string
	}
	var got []column
	for _, ty := range tallies(st, 2, 10) {
		got = append(got, column{ty.Lane, ty.From.At, ty.To.At, ty.Series, ty.Count, ty.Title})
	}
	want := []column{
		{"slot-0", 0, 10, seriesClaims, 3, "3 claims from 0 to 10 ms"},
		{"slot-0", 0, 10, seriesTakeovers, 1, "1 takeovers from 0 to 10 ms"},
		{"slot-0", 10, 20, seriesClaims, 1, "1 claims from 10 to 20 ms"},
		{"slot-0", 590, 600, seriesClaims, 2, "2 claims from 590 to 600 ms"},
		{"slot-0", 590, 600, seriesTakeovers, 1, "1 takeovers from 590 to 600 ms"},
		{"slot-1", 20, 30, seriesClaims, 1, "1 claims from 20 to 30 ms"},
		{"slot-1", 20, 30, seriesTakeovers, 1, "1 takeovers from 20 to 30 ms"},
	}
	assert.Check(t, cmp.DeepEqual(got, want),
		"each claim must count once, in the column of its instant, on its own slot")
}

// TestAViolationsLineStandsWhereItsRecordsPlaceIt: the line of a stale
// write stands at the last write of that message the store accepted; the
// line of a double or stale complete, a terminal state left or a retry
// budget broken at the last accepted complete, dead-letter or retry of
// it; a repeated token where a claim of that message first won a token
// won before. Records of other messages and refused calls do not move
// it, nor a word of one call recorded for another, nor the order of the
// files. What only the ledger at the end shows (lost, stuck, unfinished, a
// damaged file), and a violation no record places, stands at the end.
func TestAViolationsLineStandsWhereItsRecordsPlaceIt(t *testing.T) {
	t.Parallel()
	rec := func(op, id, result string, token, at int64) audit.Record {
		return audit.Record{Op: op, ID: id, Result: result, Token: token, At: at}
	}
	st := story{beganMs: 0, endedMs: 1000, logs: []audit.Log{
		{Owner: "worker-a", Records: []audit.Record{
			rec("claim", "msg-1", audit.Claimed, 1, 0),
			rec("write", "msg-1", "accepted", 1, 0),
			rec("write", "msg-1", "accepted", 1, 300),
			rec("write", "msg-1", audit.Refused, 1, 350),
			rec("write", "msg-2", "accepted", 1, 360),
			rec("write", "msg-5", "accepted", 1, 0),
			rec("complete", "msg-1", audit.Completed, 1, 400),
			rec("complete", "msg-1", "accepted", 1, 900),
			rec("dead-letter", "msg-6", audit.DeadLettered, 1, 50),
			rec("complete", "msg-1", audit.Refused, 1, 450),
			rec("claim", "msg-2", audit.Claimed, 2, 500),
		}},
		{Owner: "worker-b", Records: []audit.Record{
			rec("claim", "msg-1", audit.Claimed, 2, 200),
			rec("complete", "msg-1", audit.Completed, 3, 420),
			rec("dead-letter", "msg-3", audit.Retried, 3, 0),
			rec("dead-letter", "msg-4", audit.Retried, 4, 10),
			rec("dead-letter", "msg-4", audit.DeadLettered, 4, 610),
			rec("complete", "msg-4", audit.Completed, 4, 620),
			rec("write", "msg-4", "accepted", 4, 630),
			rec("complete", "msg-4", audit.Refused, 4, 640),
			rec("write", "msg-1", "accepted", 2, 250),
			rec("dead-letter", "msg-4", audit.Retried, 4, 15),
		}},
	}}
	for _, tc := range []struct {
		kind audit.Kind
		id   string
		want int64
	}{
		{audit.StaleWrite, "msg-1", 300},
		{audit.StaleWrite, "msg-3", 1000},
		{audit.StaleWrite, "msg-5", 0},
		{audit.TerminalLeft, "msg-6", 50},
		{audit.DoubleCompletion, "msg-1", 420},
		{audit.StaleComplete, "msg-1", 420},
		{audit.TerminalLeft, "msg-4", 620},
		{audit.RetryBudget, "msg-4", 620},
		{audit.RetryBudget, "msg-3", 0},
		{audit.DoubleCompletion, "msg-5", 1000},
		{audit.TokenNotIncreasing, "msg-1", 1000},
		{audit.TokenNotIncreasing, "msg-2", 500},
		{audit.Lost, "msg-1", 1000},
		{audit.Stuck, "msg-1", 1000},
		{audit.Unfinished, "msg-1", 1000},
		{audit.Integrity, "", 1000},
	} {
		got := violationAt(st, audit.Violation{Kind: tc.kind, ID: tc.id})
		assert.Check(t, cmp.Equal(got, tc.want), "the line of %s on %s", tc.kind, tc.id)
	}
}

// TestARepeatedTokenIsFoundInTimeOrder: the claims of every process are
// put in the order of their instants before a token counts as won twice,
// so the later winner of a token is the one marked, whichever file it is
// in; a repeat by another message does not mark this one; a message whose
// tokens never repeat stands at the end.
func TestARepeatedTokenIsFoundInTimeOrder(t *testing.T) {
	t.Parallel()
	claim := func(id string, token, at int64) audit.Record {
		return audit.Record{Op: "claim", ID: id, Result: audit.Claimed, Token: token, At: at}
	}
	st := story{beganMs: 0, endedMs: 1000, logs: []audit.Log{
		{Owner: "worker-b", Records: []audit.Record{claim("msg-1", 7, 500), claim("msg-2", 3, 100)}},
		{Owner: "worker-a", Records: []audit.Record{
			claim("msg-1", 7, 200),
			claim("msg-2", 7, 300),
			{Op: "claim", ID: "msg-3", Result: audit.Refused, Token: 3, At: 400},
			{Op: "complete", ID: "msg-3", Result: audit.Completed, Token: 3, At: 410},
			{Op: "write", ID: "msg-3", Result: audit.Claimed, Token: 9, At: 415},
			claim("msg-3", 9, 420),
		}},
	}}
	assert.Check(t, cmp.Equal(repeatedTokenAt(st, "msg-2"), int64(300)), "msg-2 won token 7 at 300 ms, after msg-1 had won it at 200 ms")
	assert.Check(t, cmp.Equal(repeatedTokenAt(st, "msg-1"), int64(500)), "msg-1 won token 7 again at 500 ms, in the file read first")
	assert.Check(t, cmp.Equal(repeatedTokenAt(st, "msg-3"), int64(1000)), "msg-3 won only token 9: a refused claim, a complete and a write win nothing")
}

// crowdedRun is madeUpRun with worker-a killed five times within 40 ms,
// while its slot's columns count claims, and worker-b once.
func crowdedRun() *result {
	res := madeUpRun(audit.Findings{IntegrityCheck: "ok"})
	for i := range int64(5) {
		res.story.kills = append(res.story.kills, killMark{atMs: began + 140 + 10*i, slot: 0, worker: "worker-a", restartAs: "worker-a2"})
	}
	res.story.kills = append(res.story.kills, killMark{atMs: began + 400, slot: 1, worker: "worker-b", restartAs: "worker-b2"})
	return res
}

// rectsByClass is every <rect> of doc inside a group of each class, as
// [x0, y0, x1, y1]: the groups are the marks, columns and bars the
// picture draws, all in one panel's coordinates.
func rectsByClass(t *testing.T, doc string) map[string][][4]float64 {
	t.Helper()
	out := map[string][][4]float64{}
	dec := xml.NewDecoder(strings.NewReader(doc))
	var classes []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		assert.NilError(t, err, "the picture is not well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			classes = append(classes, attr["class"])
			if tok.Name.Local == "rect" && len(classes) > 1 && classes[len(classes)-2] != "" {
				var r [4]float64
				for i, name := range []string{"x", "y", "width", "height"} {
					_, err := fmt.Sscan(attr[name], &r[i])
					assert.NilError(t, err, "a rect's %s", name)
				}
				r[2], r[3] = r[0]+r[2], r[1]+r[3]
				class := classes[len(classes)-2]
				out[class] = append(out[class], r)
			}
		case xml.EndElement:
			classes = classes[:len(classes)-1]
		}
	}
}

func overlap(a, b [4]float64) bool { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] }

// TestKillsStandClearOfTheColumns: a kill's mark hides no column of
// claims, and kills close in time do not merge into one blot: each mark
// stands apart from every other.
func TestKillsStandClearOfTheColumns(t *testing.T) {
	var b bytes.Buffer
	assert.NilError(t, timeline.WriteSVG(&b, figure(crowdedRun())))
	rects := rectsByClass(t, b.String())
	kills, columns := rects["mark"], rects["tally"]
	assert.Assert(t, len(kills) > 0 && len(columns) > 0, "the picture draws kills and columns")
	for i, k := range kills {
		for _, c := range columns {
			assert.Check(t, !overlap(k, c), "the kill mark %v hides the column %v", k, c)
		}
		for _, o := range kills[:i] {
			assert.Check(t, k == o || !overlap(k, o), "the kill marks %v and %v merge", o, k)
		}
	}
}

// TestTheColumnsHaveAScale: the columns' heights have a scale that says
// the largest count, and the axis under them is in milliseconds, with
// ticks.
func TestTheColumnsHaveAScale(t *testing.T) {
	res := crowdedRun()
	largest := 0
	p := figure(res).Panels[0]
	for _, ty := range p.Tallies {
		largest = max(largest, ty.Count)
	}
	var b bytes.Buffer
	assert.NilError(t, timeline.WriteSVG(&b, figure(res)))
	doc := b.String()
	assert.Check(t, cmp.Contains(doc, fmt.Sprintf("the scale of the columns: 0 at the base, %d at the top", largest)),
		"the columns have a visible scale up to the largest count, %d", largest)
	assert.Check(t, strings.Count(doc, `<g class="scale">`) == res.Processes, "each slot's lane has the scale of its columns")
	assert.Check(t, cmp.Contains(doc, ">ms (wall clock since the run began) →<"), "the axis under the columns is in milliseconds")
	assert.Check(t, cmp.Contains(doc, `text-anchor="middle" fill="#1a1a1a">500</text>`), "the millisecond axis has ticks")
}
