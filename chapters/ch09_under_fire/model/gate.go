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
	Result gate.Result
	Seen   *View // for rolled_back: what the failing transaction saw of itself
}

// Gate is the model of one destination judging by one contract.
type Gate struct {
	contract gate.Contract
	mark     Token
	units    int64
	receipts map[string]int64 // operation -> the units it was applied with
	arrivals []Arrival
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
// Under none only steps 3 and 4 happen. Every answer gets a line in the
// arrivals log, the rolled-back ones included.
func (g *Gate) Apply(req Request) GateAnswer {
	ans := g.decide(req)
	g.arrivals = append(g.arrivals, Arrival{Request: req, Result: ans.Result})
	return ans
}

func (g *Gate) decide(req Request) GateAnswer {
	fenced := g.contract == gate.Fence || g.contract == gate.FenceReceipt
	receipts := g.contract == gate.FenceReceipt
	mark := g.mark
	if fenced {
		if req.Fence < g.mark {
			return GateAnswer{Result: gate.Fenced}
		}
		mark = req.Fence
	}
	if prior, found := g.receipts[req.Operation]; receipts && found {
		if prior != req.Units {
			return GateAnswer{Result: gate.Conflict}
		}
		g.mark = mark
		return GateAnswer{Result: gate.Replayed}
	}
	if req.Fail {
		return GateAnswer{Result: gate.RolledBack, Seen: &View{Mark: mark, Units: g.units + req.Units, Receipts: len(g.receipts)}}
	}
	g.mark, g.units = mark, g.units+req.Units
	if receipts {
		g.receipts[req.Operation] = req.Units
	}
	return GateAnswer{Result: gate.Applied}
}
