package mutate

// This file is the not operator: a logical negation dropped.

import (
	"go/ast"
	"go/token"
)

// Not drops a logical negation.
const Not Operator = "not"

var _ = register(&operator{
	name:      Not,
	doc:       "a ! dropped",
	switched:  switchCond,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.NOT {
				st.add(&Mutant{Operator: Not, Original: st.text(u), Mutated: st.text(u.X)}, u, st.text(u.X))
			}
		}
	},
})
