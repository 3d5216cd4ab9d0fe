package model

// This file is the destination gate model: the committed fence mark, the
// receipts, the controlled failure and the arrivals log, from chapters 5
// and 6.

import "github.com/fencelab/fencelab/internal/gate"

// Request is one call to the destination, with the fence as the model
// numbers it.
type Request struct {
	Fence     Token
	Operation string
	Units     int64
	Fail      bool // the controlled failure after the effect
}

// View is the destination's state: committed, or as a failing
// transaction saw itself.
type View struct {
	Mark     Token
	Units    int64
	Receipts int
}

// Arrival is one line of the arrivals log.
type Arrival struct {
	Request
	Result gate.Result
}

// GateAnswer is what the model says one call returns.
type GateAnswer struct {
	Result gate.Result // "" when Failed
	Seen   *View       // for rolled_back: what the failing transaction saw of itself
	// Failed: Apply returned an error and no answer. Nothing committed, so
	// the caller may try again.
	Failed bool
	// NotLogged: the answer stands, but its line is missing from the
	// arrivals log (Apply's error wraps gate.ErrNotLogged).
	NotLogged bool
}

// Gate is the model of one destination judging by one contract.
type Gate struct {
	contract  gate.Contract
	mark      Token
	units     int64
	receipts  map[string]int64 // operation -> the units it was applied with
	arrivals  []Arrival
	logBroken bool
}

// NewGate returns a destination with mark 0, no units and no receipts.
func NewGate(contract gate.Contract) *Gate {
	return &Gate{contract: contract, receipts: map[string]int64{}}
}

// State returns the committed state.
func (g *Gate) State() View {
	return View{Mark: g.mark, Units: g.units, Receipts: len(g.receipts)}
}

// Arrivals returns the arrivals log, oldest line first.
func (g *Gate) Arrivals() []Arrival { return g.arrivals }

// BreakLog makes every new line of the arrivals log fail to be written,
// until RepairLog.
func (g *Gate) BreakLog() { g.logBroken = true }

// RepairLog lets the arrivals log take lines again.
func (g *Gate) RepairLog() { g.logBroken = false }

// Apply is one call, decided in the order chapter 5 lists and with the
// commit rule of chapter 6:
//
//  1. fence and fence+receipt: a fence below the committed mark is fenced
//     and changes nothing; an equal or greater one becomes the tentative
//     mark;
//  2. fence+receipt: a receipt for the operation with the same units is
//     replayed (the tentative mark commits, no effect); with other units it
//     is a conflict and nothing commits;
//  3. the effect adds the units;
//  4. the controlled failure, if asked for: rolled back, nothing commits,
//     and the answer carries what the transaction saw of itself;
//  5. fence+receipt: the receipt is recorded. Mark, effect and receipt
//     commit together: applied.
//
// Under none only steps 3 and 4 happen.
//
// Every answer gets a line in the arrivals log (chapter 6). An answer that
// commits (applied, replayed, fenced) writes it in its own transaction: if
// the log is broken, the whole call fails and nothing commits. A conflict
// or a rolled-back call writes its line afterwards, on its own: if the log
// is broken, the answer stands and only the line is missing.
func (g *Gate) Apply(req Request) GateAnswer {
	ans, commit := g.decide(req)
	switch {
	case commit != nil && g.logBroken:
		return GateAnswer{Failed: true}
	case commit != nil:
		commit()
	case g.logBroken:
		ans.NotLogged = true
		return ans
	}
	g.arrivals = append(g.arrivals, Arrival{Request: req, Result: ans.Result})
	return ans
}

// decide returns the answer to req and, for an answer that commits, the
// change it commits; nil for one that rolls back.
func (g *Gate) decide(req Request) (GateAnswer, func()) {
	fenced := g.contract == gate.Fence || g.contract == gate.FenceReceipt
	receipts := g.contract == gate.FenceReceipt
	mark := g.mark
	if fenced {
		if req.Fence < g.mark {
			return GateAnswer{Result: gate.Fenced}, func() {}
		}
		mark = req.Fence
	}
	if prior, found := g.receipts[req.Operation]; receipts && found {
		if prior != req.Units {
			return GateAnswer{Result: gate.Conflict}, nil
		}
		return GateAnswer{Result: gate.Replayed}, func() { g.mark = mark }
	}
	if req.Fail {
		return GateAnswer{Result: gate.RolledBack, Seen: &View{Mark: mark, Units: g.units + req.Units, Receipts: len(g.receipts)}}, nil
	}
	return GateAnswer{Result: gate.Applied}, func() {
		g.mark, g.units = mark, g.units+req.Units
		if receipts {
			g.receipts[req.Operation] = req.Units
		}
	}
}
