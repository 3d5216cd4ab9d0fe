package history

import "fmt"

// This file holds the fenced store's specification (chapter 10's
// destination): a write is accepted unless its token is below the key's
// mark, and counts one effect each time, a repeat with the same token
// included; a completion happens once; a claim of the mark raises it
// with no effect, unless its token is below it.

// storeKey is one key of the store.
type storeKey struct {
	Mark   int64
	Writes int64
	Done   bool
}

// Store is the fenced store's specification (the fence on).
func Store() Spec {
	return spec[storeKey]{
		name:   "store",
		byKey:  true,
		answer: storeAnswer,
		effect: storeEffect,
		show: func(s storeKey) string {
			return fmt.Sprintf("mark %d writes %d done %v", s.Mark, s.Writes, s.Done)
		},
	}.build()
}

func storeAnswer(s storeKey, op Op) (bool, storeKey) {
	o := op.Out
	refused := func(reason string) bool {
		return o.Result == Refused && o.Reason == reason && o.Mark == s.Mark
	}
	switch op.Kind {
	case Write:
		if op.Token < s.Mark {
			return refused("stale_token"), s
		}
		// Accepted, the same token as the last accepted one included:
		// the store keeps no receipt, so a repeat is a second effect.
		return o.Result == OK, storeKey{Mark: max(s.Mark, op.Token), Writes: s.Writes + 1, Done: s.Done}
	case ClaimMark:
		if op.Token < s.Mark {
			return refused("stale_token"), s
		}
		return o.Result == OK, storeKey{Mark: op.Token, Writes: s.Writes, Done: s.Done}
	case Complete:
		switch {
		case s.Done:
			return refused("terminal"), s
		case op.Token < s.Mark:
			return refused("stale_token"), s
		}
		return o.Result == OK, storeKey{Mark: max(s.Mark, op.Token), Writes: s.Writes, Done: true}
	case Read:
		return o.Result == OK && o.Mark == s.Mark && o.Count == s.Writes && o.Done == s.Done, s
	}
	return false, s
}

func storeEffect(s storeKey, op Op) (storeKey, bool) {
	switch {
	case op.Token < s.Mark:
	case op.Kind == Write:
		return storeKey{Mark: max(s.Mark, op.Token), Writes: s.Writes + 1, Done: s.Done}, true
	case op.Kind == ClaimMark:
		return storeKey{Mark: op.Token, Writes: s.Writes, Done: s.Done}, true
	case op.Kind == Complete && !s.Done:
		return storeKey{Mark: max(s.Mark, op.Token), Writes: s.Writes, Done: true}, true
	}
	return s, false
}
