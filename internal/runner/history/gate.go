package history

import (
	"fmt"
	"sort"
	"strings"
)

// This file holds the destination gate's specification under its
// fence+receipt contract (chapters 5 and 6, and chapter 9's model.Gate):
// a fence below the mark is fenced; an operation with a receipt is
// replayed (same units) or a conflict (other units), with no second
// effect; any other is applied, and moves the mark to its fence.

// gateState is the whole gate: it is one resource, so its history is
// not split by key.
type gateState struct {
	Mark  int64
	Units int64
	// Receipts lists each applied operation and its units, "OP-1=2",
	// sorted and comma-separated, so that the state compares with ==.
	Receipts string
}

func (s gateState) receipt(operation string) (units int64, found bool) {
	for _, r := range strings.Split(s.Receipts, ",") {
		name, v, ok := strings.Cut(r, "=")
		if ok && name == operation {
			fmt.Sscan(v, &units)
			return units, true
		}
	}
	return 0, false
}

func (s gateState) withReceipt(operation string, units int64) string {
	var rs []string
	if s.Receipts != "" {
		rs = strings.Split(s.Receipts, ",")
	}
	rs = append(rs, fmt.Sprintf("%s=%d", operation, units))
	sort.Strings(rs)
	return strings.Join(rs, ",")
}

func (s gateState) receipts() int64 {
	if s.Receipts == "" {
		return 0
	}
	return int64(strings.Count(s.Receipts, ",") + 1)
}

// Gate is the gate's specification under the fence+receipt contract.
func Gate() Spec {
	return spec[gateState]{
		name:   "gate",
		answer: gateAnswer,
		effect: gateEffect,
		show: func(s gateState) string {
			return fmt.Sprintf("mark %d units %d receipts [%s]", s.Mark, s.Units, s.Receipts)
		},
	}.build()
}

// gateDecide is the result an apply gets from s, and the state after.
func gateDecide(s gateState, op Op) (string, gateState) {
	if op.Token < s.Mark {
		return "fenced", s
	}
	if units, found := s.receipt(op.Key); found {
		if units != op.Units {
			return "conflict", s
		}
		s.Mark = op.Token // a replay advances the mark, with no second effect
		return "replayed", s
	}
	return "applied", gateState{Mark: op.Token, Units: s.Units + op.Units, Receipts: s.withReceipt(op.Key, op.Units)}
}

func gateAnswer(s gateState, op Op) (bool, gateState) {
	o := op.Out
	switch op.Kind {
	case Apply:
		result, next := gateDecide(s, op)
		return o.Result == result, next
	case Read:
		return o.Result == OK && o.Mark == s.Mark && o.Count == s.Units && o.Receipts == s.receipts(), s
	}
	return false, s
}

func gateEffect(s gateState, op Op) (gateState, bool) {
	if op.Kind != Apply {
		return s, false
	}
	_, next := gateDecide(s, op)
	return next, true
}
