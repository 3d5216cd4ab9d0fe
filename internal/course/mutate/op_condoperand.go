package mutate

// This file is the cond-operand operator: one operand of && or || dropped,
// the condition a refactoring loses.

import (
	"go/ast"
	"go/token"
)

// CondOperand drops one operand of && or ||.
const CondOperand Operator = "cond-operand"

var _ = register(&operator{
	name:      CondOperand,
	doc:       "one operand of && or || dropped",
	switched:  switchCond,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || b.Op != token.LAND && b.Op != token.LOR {
				return
			}
			for _, kept := range []ast.Expr{b.X, b.Y} {
				st.add(&Mutant{Operator: CondOperand, Original: st.text(b), Mutated: st.text(kept)}, b, st.text(kept))
			}
		}
	},
})
