package history

// This file turns a specification written for one typed state into
// porcupine's model: the steps of answered and unanswered calls, the
// partition by key, and the descriptions its page shows.

import (
	"fmt"
	"sort"

	"github.com/anishathalye/porcupine"
)

// Spec is one mechanism's sequential specification, ready to check a
// history against.
type Spec struct {
	Name  string
	model porcupine.Model
}

// spec is a specification on a typed state S: the state of one key, or
// of the whole mechanism when byKey is false.
type spec[S comparable] struct {
	name string
	init S
	// answer says whether op's answer (op.Out) is possible from s, and
	// the state after it.
	answer func(s S, op Op) (bool, S)
	// effect is the state op leaves if it took effect, for a call with no
	// answer; false if it cannot take effect from s. Not taking effect is
	// always possible, and needs no saying.
	effect func(s S, op Op) (S, bool)
	byKey  bool
	show   func(S) string
}

// build makes sp into a Spec. An unanswered call steps to two states,
// with and without its effect: porcupine's nondeterministic model.
func (sp spec[S]) build() Spec {
	nm := porcupine.NondeterministicModel{
		Init: func() []any { return []any{sp.init} },
		Step: func(state, input, _ any) []any {
			s, op := state.(S), input.(Op)
			if op.answered() {
				if ok, next := sp.answer(s, op); ok {
					return []any{next}
				}
				return nil
			}
			if next, ok := sp.effect(s, op); ok && next != s {
				return []any{s, next}
			}
			return []any{s}
		},
		DescribeOperation: func(input, _ any) string { return describe(input.(Op)) },
		DescribeState:     func(state any) string { return sp.show(state.(S)) },
	}
	if sp.byKey {
		nm.Partition = byKey
	}
	return Spec{Name: sp.name, model: nm.ToModel()}
}

// byKey splits a history into one per key: the keys of these mechanisms
// share no state that an answer shows, so a history is linearizable if
// and only if each key's is (porcupine's P-compositionality), and the
// check explores each key's orders alone.
func byKey(ops []porcupine.Operation) [][]porcupine.Operation {
	groups := map[string][]porcupine.Operation{}
	for _, o := range ops {
		k := o.Input.(Op).Key
		groups[k] = append(groups[k], o)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]porcupine.Operation, 0, len(keys))
	for _, k := range keys {
		out = append(out, groups[k])
	}
	return out
}

// describe is an operation as the page labels it.
func describe(op Op) string {
	var call string
	switch op.Kind {
	case Claim:
		call = fmt.Sprintf("%s claim %s @%d", op.Actor, op.Key, op.Now)
	case Read:
		call = fmt.Sprintf("read %s", op.Key)
	case Apply:
		call = fmt.Sprintf("apply %s fence %d units %d", op.Key, op.Token, op.Units)
	default:
		call = fmt.Sprintf("%s %s %s token %d", op.Actor, op.Kind, op.Key, op.Token)
	}
	o := op.Out
	switch {
	case !op.answered():
		return call + " -> no answer"
	case o.Result == Refused && o.Holder != "":
		return fmt.Sprintf("%s -> refused %s (held by %s)", call, o.Reason, o.Holder)
	case o.Result == Refused && (op.Kind == Write || op.Kind == ClaimMark || op.Kind == Complete && o.Mark != 0):
		return fmt.Sprintf("%s -> refused %s (mark %d)", call, o.Reason, o.Mark)
	case o.Result == Refused:
		return fmt.Sprintf("%s -> refused %s", call, o.Reason)
	case op.Kind == Claim && o.Renewed:
		return fmt.Sprintf("%s -> renewed token %d until %d", call, o.Token, o.Expires)
	case op.Kind == Claim:
		return fmt.Sprintf("%s -> token %d until %d", call, o.Token, o.Expires)
	case op.Kind == Read:
		return fmt.Sprintf("%s -> %s holder %q token %d mark %d count %d done %v", call, o.State, o.Holder, o.Token, o.Mark, o.Count, o.Done)
	}
	return call + " -> " + o.Result
}
