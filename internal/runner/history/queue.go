package history

import "fmt"

// This file holds the job queue's specification (chapter 5, and chapter
// 9's model.Queue): a claim takes a queued job, or a running one whose
// lease has ended, with a fence above every earlier one; there is no
// renewal, so a claim on a live lease is refused even to its holder; a
// finish needs the running job, its worker and its fence.

// queueJob is one job as the specification sees it.
type queueJob struct {
	State   string // queued, running or completed
	Worker  string
	Fence   int64
	Expires int64
	Unsure  bool // as mailboxKey's: a claim with no answer may hold a fence nobody was told
}

func (s queueJob) fenceIs(f int64) bool {
	if s.Unsure {
		return f > s.Fence
	}
	return f == s.Fence
}

// Queue is the job queue's specification, for leases lease milliseconds
// long.
func Queue(lease int64) Spec {
	return spec[queueJob]{
		name:   "queue",
		init:   queueJob{State: "queued"},
		byKey:  true,
		answer: func(s queueJob, op Op) (bool, queueJob) { return queueAnswer(s, op, lease) },
		effect: func(s queueJob, op Op) (queueJob, bool) { return queueEffect(s, op, lease) },
		show: func(s queueJob) string {
			return fmt.Sprintf("%s worker %q fence %d until %d", s.State, s.Worker, s.Fence, s.Expires)
		},
	}.build()
}

func queueAnswer(s queueJob, op Op, lease int64) (bool, queueJob) {
	o := op.Out
	switch op.Kind {
	case Claim:
		switch {
		case s.State == "completed":
			return o.Result == Refused && o.Reason == "finished", s
		case s.State == "running" && op.Now < s.Expires:
			return o.Result == Refused && o.Reason == "lease_held" && o.Holder == s.Worker, s
		}
		ok := o.Result == OK && o.Token > s.Fence && o.Expires == op.Now+lease
		return ok, queueJob{State: "running", Worker: op.Actor, Fence: o.Token, Expires: op.Now + lease}
	case Finish:
		if s.State == "running" && s.Worker == op.Actor && s.fenceIs(op.Token) {
			if s.Unsure && o.Result == Refused && o.Reason == "lease_lost" && o.Holder == s.Worker {
				return true, s
			}
			return o.Result == OK, queueJob{State: "completed", Worker: s.Worker, Fence: op.Token, Expires: s.Expires}
		}
		// A second finish with the fence that finished it is refused too.
		return o.Result == Refused && o.Reason == "lease_lost" && o.Holder == s.Worker, s
	case Read:
		ok := o.Result == OK && o.State == s.State && o.Holder == s.Worker && s.fenceIs(o.Token) && o.Expires == s.Expires
		s.Fence, s.Unsure = o.Token, false
		return ok, s
	}
	return false, s
}

func queueEffect(s queueJob, op Op, lease int64) (queueJob, bool) {
	switch op.Kind {
	case Claim:
		if s.State == "queued" || s.State == "running" && op.Now >= s.Expires {
			return queueJob{State: "running", Worker: op.Actor, Fence: s.Fence, Expires: op.Now + lease, Unsure: true}, true
		}
	case Finish:
		if s.State == "running" && s.Worker == op.Actor && s.fenceIs(op.Token) {
			return queueJob{State: "completed", Worker: s.Worker, Fence: op.Token, Expires: s.Expires}, true
		}
	}
	return s, false
}
