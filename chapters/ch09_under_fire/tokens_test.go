package underfire

// This file binds the model's tokens to the mechanism's numbers. The model
// counts its own generations; the mechanism draws numbers from a counter
// in the database. Neither is told the other's. Each time the model says
// "a new generation begins here" and the mechanism returns a number never
// seen before, the two are bound, and the number must be greater than
// every number bound before it: the order is the rule, the values are not.

import (
	"fmt"

	"github.com/fencelab/fencelab/chapters/ch09_under_fire/model"
)

// neverIssued is a token nobody was handed: far above any number either
// side mints in a test. Presenting it is a forger's, or a confused
// worker's, request.
const neverIssued = 1 << 40

// tokens is one run's binding between model tokens and real numbers.
type tokens struct {
	real   map[model.Token]int64
	model  map[int64]model.Token
	newest int64 // the greatest real number bound so far
}

func newTokens() *tokens {
	t := &tokens{real: map[model.Token]int64{}, model: map[int64]model.Token{}}
	t.real[0], t.model[0] = 0, 0
	t.real[neverIssued], t.model[neverIssued] = neverIssued, neverIssued
	return t
}

// toReal returns the number to present for model token m.
func (t *tokens) toReal(m model.Token) int64 { return t.real[m] }

// toModel returns the model token bound to the real number r, or, for a
// number never bound, a negative token that equals no model token.
func (t *tokens) toModel(r int64) model.Token {
	if m, ok := t.model[r]; ok {
		return m
	}
	return -model.Token(r) - 1
}

// bindNew binds r to m when the model just began generation m and the
// mechanism returned r for it. It refuses (returns false) unless m is not
// yet bound and r is a number never seen, greater than every one before.
func (t *tokens) bindNew(m model.Token, r int64) bool {
	if _, bound := t.real[m]; bound || r <= t.newest {
		return false
	}
	if _, seen := t.model[r]; seen {
		return false
	}
	t.real[m], t.model[r], t.newest = r, m, r
	return true
}

// say describes model token m for a person: "token 3" once bound to 3,
// "no token", or what the model expects of a token not yet bound.
func (t *tokens) say(m model.Token) string { return t.sayAs("token", m) }

// sayAs is say with another noun: "fence 3", "no fence".
func (t *tokens) sayAs(noun string, m model.Token) string {
	switch r, ok := t.real[m]; {
	case m == 0:
		return "no " + noun
	case m == neverIssued:
		return "a never-issued " + noun
	case ok:
		return fmt.Sprintf("%s %d", noun, r)
	case m < 0:
		return fmt.Sprintf("%s %d", noun, -m-1) // a real number the model never issued
	case t.newest == 0:
		return "a new " + noun
	}
	return fmt.Sprintf("a new %s, greater than %d", noun, t.newest)
}
