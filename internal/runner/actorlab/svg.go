package actorlab

// This file draws the actors command's run as three panels, one per part
// of the story: the actor lease between the two processes, execution
// attempts under one lease, and the ordinary run path refusing process B
// before its provider runs. The processes' identities are random and
// their pids change on every run, so the picture names them A and B only.

import (
	"fmt"
	"io"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/runner/timeline"
)

// The lanes of the pictures.
const (
	laneA     = "A"
	laneB     = "B"
	leaseLane = "lease"
)

// SVG draws result as three panels.
func (experiment) SVG(w io.Writer, drawn any) error {
	res, ok := drawn.(result)
	if !ok {
		return fmt.Errorf("actors: cannot draw a %T", drawn)
	}
	return timeline.WriteSVG(w, timeline.Figure{
		Title: "fencelab actors",
		About: fmt.Sprintf("Two OS processes act for one actor, %s, through one ledger; each has its own random identity. Leases last %d minutes.",
			res.Actor, res.LeaseMinutes),
		Panels: []timeline.Panel{leasePanel(res), attemptPanel(res), runPanel(res)},
	})
}

// processLanes are the lanes of the two processes, and of the actor's
// lease row, followed by the rows of assignments.
func processLanes(res result, withB bool, assignments ...string) []timeline.Lane {
	ls := []timeline.Lane{{ID: laneA, Label: "process A", Note: "the runner"}}
	if withB {
		ls = append(ls, timeline.Lane{ID: laneB, Label: "process B", Note: "a second process"})
	}
	ls = append(ls, timeline.Lane{ID: leaseLane, Label: "actor lease", Note: res.Actor, Store: true})
	for _, a := range assignments {
		ls = append(ls, timeline.Lane{ID: a, Label: a, Note: "assignment row", Store: true})
	}
	return ls
}

// minuteAxis is every panel's axis: it runs from the panel's first moment
// to a minute past its last, as the timeline lays out an axis left unset.
var minuteAxis = timeline.Axis{Unit: "minute", Clock: "logical clock"}

// leaseValue is the actor lease's row from m on: held by holder under
// token.
func leaseValue(m timeline.Moment, holder string, token int64) timeline.Value {
	return timeline.Value{Lane: leaseLane, From: m, Text: fmt.Sprintf("%s · token %d", holder, token),
		Title: fmt.Sprintf("the actor lease is held by process %s under token %d", holder, token)}
}

// freeLease is the actor lease's row from m on, with no holder.
func freeLease(m timeline.Moment) timeline.Value {
	return timeline.Value{Lane: leaseLane, From: m, Text: "free",
		Title: "the actor lease has no holder (it keeps its last token)"}
}

// leaseBar is a process's actor lease from its grant to its release.
func leaseBar(lane string, from, to timeline.Moment, token int64, what string) timeline.Span {
	return timeline.Span{Lane: lane, Kind: timeline.Lease, From: from, To: to, Label: fmt.Sprintf("token %d", token),
		Title: fmt.Sprintf("process %s holds the actor lease under token %d %s", lane, token, what)}
}

// refusedBy is the words of a refusal, with the holder named as a process
// rather than by its random identity.
func refusedBy(res result, reason, holder string) string {
	s := "refused: " + reason
	for i, id := range res.ProcessIDs { // A's identity, then B's
		if id == holder {
			s += " by " + []string{laneA, laneB}[i]
		}
	}
	return s
}

// leasePanel is the lease's minute: A acquires, B is refused, A releases, B
// acquires and releases.
func leasePanel(res result) timeline.Panel {
	cas := res.ActorLeaseCAS
	p := timeline.Panel{
		Title: "The actor lease: one process at a time",
		About: "A compare-and-set on the lease row: while A holds it, B is refused; once A gives it back, B's acquire mints a greater token.",
		Axis:  minuteAxis, Lanes: processLanes(res, true),
	}
	var seq timeline.Sequence
	at := res.minutes.lease
	aGets, bTries, aGives, bGets, bGives := seq.At(at), seq.At(at), seq.At(at), seq.At(at), seq.At(at)
	p.Events = []timeline.Event{
		{Lane: laneA, At: aGets, Reaches: leaseLane, Outcome: timeline.Accepted, Label: "acquire", Result: fmt.Sprintf("token %d", cas.ProcessAAcquired.Token)},
		{Lane: laneB, At: bTries, Reaches: leaseLane, Outcome: refusedMark(cas.ProcessBWhileAHolds.Result), Label: "acquire",
			Result: tryResult(res, cas.ProcessBWhileAHolds)},
		{Lane: laneA, At: aGives, Reaches: leaseLane, Outcome: releaseMark(cas.ProcessAReleased), Label: "release", Result: released(cas.ProcessAReleased)},
		{Lane: laneB, At: bGets, Reaches: leaseLane, Outcome: timeline.Accepted, Label: "acquire", Result: fmt.Sprintf("token %d", cas.ProcessBNowAcquires.Token)},
		{Lane: laneB, At: bGives, Reaches: leaseLane, Outcome: releaseMark(cas.ProcessBReleased), Label: "release", Result: released(cas.ProcessBReleased)},
	}
	p.Spans = []timeline.Span{
		leaseBar(laneA, aGets, aGives, cas.ProcessAAcquired.Token, "until it releases it"),
		leaseBar(laneB, bGets, bGives, cas.ProcessBNowAcquires.Token, "until it releases it"),
	}
	p.Values = []timeline.Value{
		freeLease(timeline.At(at)),
		leaseValue(aGets, laneA, cas.ProcessAAcquired.Token),
	}
	if cas.ProcessBWhileAHolds.Result != "refused" {
		p.Values = append(p.Values, timeline.Value{Lane: leaseLane, From: bTries, Text: "B took it from A",
			Title: "process B acquired the actor lease while A held it: the compare-and-set let a second process in"})
	}
	p.Values = append(p.Values,
		freeLease(aGives),
		leaseValue(bGets, laneB, cas.ProcessBNowAcquires.Token),
		freeLease(bGives))
	return p
}

// attemptPanel is the attempts' minute: under one lease, one attempt per assignment,
// and no attempt under a token released long ago.
func attemptPanel(res result) timeline.Panel {
	af := res.ExecutionAttemptFencing
	p := timeline.Panel{
		Title: "The execution attempt: one current run per assignment",
		About: "Each attempt records its own token and the lease it descends from; the lease is checked again inside the attempt's own transaction.",
		Axis:  minuteAxis, Lanes: processLanes(res, false, asgAttempt, asgStale),
	}
	var seq timeline.Sequence
	at := res.minutes.attempts
	gets, first, second, stale, gives := seq.At(at), seq.At(at), seq.At(at), seq.At(at), seq.At(at)
	p.Events = []timeline.Event{
		{Lane: laneA, At: gets, Reaches: leaseLane, Outcome: timeline.Accepted, Label: "acquire lease", Result: fmt.Sprintf("token %d", af.LeaseToken)},
		{Lane: laneA, At: first, Reaches: asgAttempt, Outcome: timeline.Accepted, Label: "attempt " + af.Acquired.Assignment,
			Result: fmt.Sprintf("token %d, lease %d", af.Acquired.Token, af.Acquired.LeaseToken)},
		{Lane: laneA, At: second, Reaches: asgAttempt, Outcome: refusedMark(af.SecondAttempt.Result), Label: "again, same lease",
			Result: answerOf(af.SecondAttempt)},
		{Lane: laneA, At: stale, Reaches: asgStale, Outcome: refusedMark(af.StaleLeaseToken.Result),
			Label: fmt.Sprintf("attempt %s, lease %d", asgStale, af.StaleLeaseToken.Token), Result: answerOf(af.StaleLeaseToken)},
		{Lane: laneA, At: gives, Reaches: leaseLane, Outcome: timeline.Noted, Label: "release", Result: "released"},
	}
	p.Spans = []timeline.Span{leaseBar(laneA, gets, gives, af.LeaseToken, "while it starts attempts")}
	p.Values = []timeline.Value{
		freeLease(timeline.At(at)),
		leaseValue(gets, laneA, af.LeaseToken),
		freeLease(gives),
		{Lane: asgAttempt, From: timeline.At(at), Text: "CREATED · no attempt"},
		{Lane: asgAttempt, From: first, Text: fmt.Sprintf("CREATED · attempt token %d", af.Acquired.Token),
			Title: fmt.Sprintf("%s's current attempt: token %d, descended from lease %d", asgAttempt, af.Acquired.Token, af.Acquired.LeaseToken)},
		{Lane: asgStale, From: timeline.At(at), Text: "CREATED · no attempt",
			Title: fmt.Sprintf("%s never gets an attempt: the lease token presented was released long ago", asgStale)},
	}
	return p
}

// runPanel is the run's minute and the next try's: A runs asg-3 through the ordinary path;
// while its provider runs, B's run of asg-4 is refused before its
// provider is invoked; once A is done, B's next try completes.
func runPanel(res result) timeline.Panel {
	sr, run, next := res.SecondProcessSameActor, res.firstRun, res.nextTry
	p := timeline.Panel{
		Title: "The ordinary path: no way around the lease",
		About: "RunAssignment acquires the lease, then an attempt, marks RUNNING and only then invokes the provider; every way out gives the lease back.",
		Axis:  minuteAxis, Lanes: processLanes(res, true, asgFirst, sr.Assignment),
	}
	var seq timeline.Sequence
	at, then := res.minutes.run, res.minutes.nextTry
	aRuns, bTries, aDone := seq.At(at), seq.At(at), seq.At(at)
	bRuns, bDone := seq.At(then), seq.At(then)
	bResult := refusedBy(res, sr.Category, "")
	if sr.Outcome != "refused" {
		bResult = sr.Outcome
	}
	if sr.ProviderInvoked {
		bResult += ", its provider ran"
	} else {
		bResult += ", provider not run"
	}
	p.Events = []timeline.Event{
		{Lane: laneA, At: aRuns, Reaches: asgFirst, Outcome: timeline.Accepted, Label: "run " + asgFirst,
			Result: fmt.Sprintf("lease %d, attempt %d: RUNNING", run.Lease.Token, run.Attempt.Token)},
		{Lane: laneB, At: bTries, Reaches: leaseLane, Outcome: refusedMark(sr.Outcome), Label: "run " + sr.Assignment, Result: bResult},
		{Lane: laneA, At: aDone, Reaches: asgFirst, Outcome: outcomeOfState(res.FirstProcessAssignment.State),
			Label: "provider returns", Result: res.FirstProcessAssignment.State + ", lease released"},
		{Lane: laneB, At: bRuns, Reaches: sr.Assignment, Outcome: outcomeOfState(next.State), Label: "run " + sr.Assignment + " again",
			Result: fmt.Sprintf("lease %d, attempt %d: %s", next.LeaseToken, next.AttemptToken, next.State)},
	}
	p.Spans = []timeline.Span{
		leaseBar(laneA, aRuns, aDone, run.Lease.Token, "for its run of "+asgFirst),
		{Lane: laneA, Kind: timeline.Work, From: aRuns, To: aDone, Label: "provider runs",
			Title: fmt.Sprintf("process A's provider runs %s while A holds the lease", asgFirst)},
		leaseBar(laneB, bRuns, bDone, next.LeaseToken, "for its run of "+sr.Assignment),
	}
	p.Values = []timeline.Value{
		freeLease(timeline.At(at)),
		leaseValue(aRuns, laneA, run.Lease.Token),
		freeLease(aDone),
		leaseValue(bRuns, laneB, next.LeaseToken),
		freeLease(bDone),
		{Lane: asgFirst, From: aRuns, Text: string(actor.Running),
			Title: fmt.Sprintf("%s is RUNNING under attempt %d once A's lease and attempt are in place", asgFirst, run.Attempt.Token)},
		{Lane: asgFirst, From: aDone, Text: res.FirstProcessAssignment.State},
		{Lane: sr.Assignment, From: timeline.At(at), Text: res.AssignmentNeverReachedRunning,
			Title: fmt.Sprintf("%s while A runs: %s, never RUNNING", sr.Assignment, res.AssignmentNeverReachedRunning)},
		{Lane: sr.Assignment, From: bDone, Text: res.SameActorNextAssignmentRelease},
	}
	return p
}

// tryResult is the words of B's try while A holds the lease: the
// refusal, with the holder named as a process, or whatever B was told
// instead.
func tryResult(res result, r refusal) string {
	if r.Result != "refused" {
		return r.Result + ", while A holds it"
	}
	return refusedBy(res, r.Reason, r.Holder)
}

// answerOf is a refusal's words, or the result if it was not refused.
func answerOf(r refusal) string {
	if r.Result == "refused" {
		return "refused: " + r.Reason
	}
	return r.Result
}

func refusedMark(result string) timeline.Outcome {
	if result == "refused" {
		return timeline.Refused
	}
	return timeline.Accepted
}

func releaseMark(ok bool) timeline.Outcome {
	if ok {
		return timeline.Noted
	}
	return timeline.Refused
}

func released(ok bool) string {
	if ok {
		return "released"
	}
	return "refused"
}

// outcomeOfState is the mark of a run that ended in state: accepted when
// it completed.
func outcomeOfState(state string) timeline.Outcome {
	if state == string(actor.Completed) {
		return timeline.Accepted
	}
	return timeline.Refused
}
