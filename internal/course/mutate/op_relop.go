package mutate

// This file is the relop operator: a relational operator flipped to its
// neighbour, < and <=, > and >=, == and !=. It is the off-by-one at a
// boundary, the mistake a lease's end invites.

import (
	"go/ast"
	"go/token"
)

// RelOp flips a relational operator: < and <=, > and >=, == and !=.
const RelOp Operator = "relop"

var _ = register(&operator{
	name:      RelOp,
	doc:       "a comparison flipped: < and <=, > and >=, == and !=",
	switched:  switchCond,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			b, ok := n.(*ast.BinaryExpr)
			if !ok {
				return
			}
			flip, ok := relFlip[b.Op]
			if !ok || isNil(b.X) || isNil(b.Y) {
				return // a flipped nil check is a crash, not a mistake; see err-check
			}
			mutated := st.text(b.X) + " " + flip.String() + " " + st.text(b.Y)
			st.add(&Mutant{Operator: RelOp, Original: st.text(b), Mutated: mutated}, b, mutated)
		}
	},
})

// relFlip maps each relational operator to the one its mutant uses.
var relFlip = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS,
	token.GTR: token.GEQ, token.GEQ: token.GTR,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
}
