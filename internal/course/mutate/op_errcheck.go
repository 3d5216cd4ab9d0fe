package mutate

// This file is the err-check operator: an `if err != nil { return ... }`
// removed, the failure that goes on as if nothing happened.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ErrCheck removes an `if err != nil { return ... }`: its condition
// becomes false, keeping err used so the file still builds.
const ErrCheck Operator = "err-check"

var _ = register(&operator{
	name:     ErrCheck,
	doc:      "an `if err != nil { return ... }` removed",
	switched: switchCond,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			ifs, ok := n.(*ast.IfStmt)
			if !ok {
				return
			}
			b, ok := ifs.Cond.(*ast.BinaryExpr)
			if !ok || b.Op != token.NEQ || !isNil(b.Y) || len(ifs.Body.List) == 0 {
				return
			}
			if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
				return
			}
			errIface := errorType.Underlying().(*types.Interface)
			if t := st.pkg.TypesInfo.TypeOf(b.X); t == nil || !types.Implements(t, errIface) {
				return
			}
			m := &Mutant{Operator: ErrCheck, Original: "if " + st.text(b) + " { " + oneLine(st.text(ifs.Body.List[0])) + " }"}
			st.add(m, b, "(false && "+st.text(b)+")")
		}
	},
})
