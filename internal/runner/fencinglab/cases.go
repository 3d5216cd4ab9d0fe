package fencinglab

// This file holds the seven cases: the destination's contract, and the
// order in which the workers' destination calls arrive. Everything else
// about the story is the same in every case.

import "github.com/fencelab/fencelab/internal/gate"

// step is one destination call in a case's arrival order.
type step struct {
	worker string
	// extraUnits is added to the units the job asks for: the changed
	// retry of changed-operation asks for N+1.
	extraUnits int64
	// fail makes this call hit the gate's controlled failure point.
	fail bool
}

var (
	callA       = step{worker: workerA}
	callB       = step{worker: workerB}
	callBChange = step{worker: workerB, extraUnits: 1}
	callBFails  = step{worker: workerB, fail: true}
)

// fencingCase is one of the seven stories.
type fencingCase struct {
	name     string
	contract gate.Contract
	order    []step // each case releases A exactly once
	about    string // one line for the text drawing
}

// cases are the seven cases, in the order a run without --case prints them.
var cases = []fencingCase{
	{"finish-only", gate.None, []step{callB, callA},
		"no destination fencing; B applies, then paused A applies"},
	{"fence-new-first", gate.Fence, []step{callB, callA},
		"B establishes mark 2 before A arrives"},
	{"fence-old-first", gate.Fence, []step{callA, callB},
		"A arrives after the queue takeover but before the destination sees 2"},
	{"same-fence-repeat", gate.Fence, []step{callB, callB, callA},
		"B repeats its call with fence 2; A arrives last"},
	{"fence-and-receipt", gate.FenceReceipt, []step{callA, callB, callB},
		"A arrives first; B and its repeat send the same operation and units"},
	{"changed-operation", gate.FenceReceipt, []step{callB, callBChange, callA},
		"B applies, then retries OP-1 with one unit more"},
	{"fence-rollback", gate.FenceReceipt, []step{callBFails, callA, callB},
		"B's first call fails after its effect and rolls back; then A; then B retries"},
}

// CaseNames lists the cases in order.
func CaseNames() []string {
	names := make([]string, len(cases))
	for i, c := range cases {
		names[i] = c.name
	}
	return names
}
