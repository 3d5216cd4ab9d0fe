// Package history records what concurrent callers asked of a mechanism
// and what it answered, and checks the record for linearizability with
// porcupine: is there one order of the calls, each placed somewhere
// between its call and its return, in which the mechanism's sequential
// specification gives every answer that was given?
//
// The specifications here are chapter 9's models restated for a checker
// that explores orders: a step may only say whether an answer is possible
// from a state, and which states follow. A call whose answer never came
// (its process was killed, or the call failed) may have taken effect or
// not, and the specification allows both.
//
// This package imports no mechanism: the reasons and results are the
// mechanisms' words as plain strings, so a mistake in a mechanism cannot
// leak into what the checker expects of it.
package history

import "math"

// Kind is what an operation asked.
type Kind string

// The operations of the four mechanisms.
const (
	Claim    Kind = "claim"    // mailbox and queue: take the key, or be told why not
	Complete Kind = "complete" // mailbox and store: finish the key under a token
	// DeadLetter: mailbox, a failed attempt under a token: the message
	// goes back to NEW, or to DEAD when its retries are spent.
	DeadLetter Kind = "dead-letter"
	Finish     Kind = "finish" // queue: finish the job under its fence
	Apply      Kind = "apply"  // gate: apply an operation under a fence
	Write      Kind = "write"  // store: one effect under a token
	// ClaimMark: store, a new holder raises the key's mark to its token
	// before it works (chapter 10's remedy), or is told it is stale.
	ClaimMark Kind = "claim-mark"
	Read      Kind = "read" // every mechanism: the key as committed
)

// The results an operation records.
const (
	OK      = "ok"      // accepted
	Refused = "refused" // turned away, for Out.Reason
	// Unknown: no answer came. The process was killed during the call,
	// or the call failed; it may have taken effect or not.
	Unknown = "unknown"
)

// Op is one operation: who called, what, when, and what came back.
// Times are nanoseconds of the wall clock, which every process on one
// machine shares; Now is the mechanism's own clock as the call read it,
// in milliseconds, which the specification takes as an input.
type Op struct {
	Process int    `json:"process"` // the process that called; a replaced one gets a new number
	Seq     int    `json:"seq"`     // the call's number within its process, from 1
	Kind    Kind   `json:"op"`
	Key     string `json:"key"`
	Actor   string `json:"actor,omitempty"` // owner, worker or writer
	Token   int64  `json:"token,omitempty"` // the token or fence presented
	Units   int64  `json:"units,omitempty"` // gate: the operation's units
	Now     int64  `json:"now,omitempty"`
	Call    int64  `json:"call"`
	Return  int64  `json:"return,omitempty"` // 0: no answer came
	Out     Out    `json:"out"`
}

// Out is what an operation got back.
type Out struct {
	Result  string `json:"result"` // OK, Refused or Unknown; the gate's apply: its result word
	Reason  string `json:"reason,omitempty"`
	Holder  string `json:"holder,omitempty"`  // who holds the key, when a refusal names one
	Token   int64  `json:"token,omitempty"`   // a claim's token or fence
	Expires int64  `json:"expires,omitempty"` // a claim's lease end, in the mechanism's milliseconds
	Renewed bool   `json:"renewed,omitempty"` // a claim that handed back the caller's own live lease
	// What a read saw.
	State string `json:"state,omitempty"`
	Mark  int64  `json:"mark,omitempty"`
	Count int64  `json:"count,omitempty"` // store: writes accepted; gate: units applied
	// mailbox: how many failed attempts sent the message back to NEW
	Retries int64 `json:"retries,omitempty"`
	Done    bool  `json:"done,omitempty"`
	// gate: how many receipts are kept
	Receipts int64 `json:"receipts,omitempty"`
}

// answered reports whether an answer came back.
func (o Op) answered() bool { return o.Return != 0 && o.Out.Result != Unknown }

// end is the op's return as the checker takes it: an unanswered call
// may take effect at any time after it began.
func (o Op) end() int64 {
	if o.Return == 0 {
		return math.MaxInt64
	}
	return o.Return
}
