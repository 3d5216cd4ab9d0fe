package history

// This file runs porcupine on a history and draws its page.

import (
	"time"

	"github.com/anishathalye/porcupine"
)

// Verdict is what a check found.
type Verdict string

// The verdicts. Unknown is never read as linearizable: the checker ran
// out of time before it found an order or proved there is none.
const (
	Linearizable    Verdict = "true"
	NotLinearizable Verdict = "false"
	Undecided       Verdict = "unknown"
)

// JSON is the verdict as the runner's JSON gives it: true, false, or the
// string "unknown".
func (v Verdict) JSON() any {
	switch v {
	case Linearizable:
		return true
	case NotLinearizable:
		return false
	}
	return string(Undecided)
}

// Result is one check of one history.
type Result struct {
	Verdict    Verdict
	Operations int
	Seconds    float64
	spec       Spec
	info       porcupine.LinearizationInfo
}

// Check checks ops against s, for at most budget.
func Check(s Spec, ops []Op, budget time.Duration) Result {
	hist := make([]porcupine.Operation, len(ops))
	clients := map[int]int{}
	for i, op := range ops {
		// porcupine draws one row per client, numbered from 0.
		c, ok := clients[op.Process]
		if !ok {
			c = len(clients)
			clients[op.Process] = c
		}
		hist[i] = porcupine.Operation{ClientId: c, Input: op, Call: op.Call, Output: op.Out, Return: op.end()}
	}
	start := time.Now()
	res, info := porcupine.CheckOperationsVerbose(s.model, hist, budget)
	r := Result{Operations: len(ops), Seconds: time.Since(start).Seconds(), spec: s, info: info}
	switch res {
	case porcupine.Ok:
		r.Verdict = Linearizable
	case porcupine.Illegal:
		r.Verdict = NotLinearizable
	default:
		r.Verdict = Undecided
	}
	return r
}

// Visualize writes porcupine's page of the checked history to path: each
// process a row of calls, and, where the history is not linearizable,
// the longest order the checker found and the call that has no place
// after it.
func (r Result) Visualize(path string) error {
	return porcupine.VisualizePath(r.spec.model, r.info, path)
}
