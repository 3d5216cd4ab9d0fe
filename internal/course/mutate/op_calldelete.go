package mutate

// This file is the call-delete operator: a call whose result nobody uses
// deleted, the write, unlock or close a hurried edit forgets.

import "go/ast"

// CallDelete deletes a call statement whose result is unused, or a
// deferred call.
const CallDelete Operator = "call-delete"

var _ = register(&operator{
	name:     CallDelete,
	doc:      "a call statement deleted (its result unused), or a deferred call",
	switched: switchDelete,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			switch n := n.(type) {
			case *ast.ExprStmt:
				if call, ok := n.X.(*ast.CallExpr); ok && !calls(call, "panic") {
					st.add(&Mutant{Operator: CallDelete, Original: st.text(n)}, n, "")
				}
			case *ast.DeferStmt:
				st.add(&Mutant{Operator: CallDelete, Original: st.text(n)}, n, "")
			}
		}
	},
})
