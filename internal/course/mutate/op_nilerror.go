package mutate

// This file is the nil-error operator: a returned error replaced by nil,
// so the caller is told all went well. In a function that decides who may
// act, a refusal turned into nil is a refusal the caller never hears of.

import (
	"go/ast"
	"go/types"
)

// NilError replaces the error a return statement gives back with nil; an
// expression there, a call included, is then not evaluated, as in the
// source it replaces.
const NilError Operator = "nil-error"

var _ = register(&operator{
	name:      NilError,
	doc:       "a returned error replaced by nil (the expression that made it is not evaluated)",
	switched:  switchLazy,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				return
			}
			res := st.results()
			last := ret.Results[len(ret.Results)-1]
			if res == nil || res.Len() != len(ret.Results) || !types.Identical(res.At(res.Len()-1).Type(), errorType) || isNil(last) {
				return
			}
			m := &Mutant{Operator: NilError, Original: st.text(last), Mutated: "nil", typ: "error"}
			st.add(m, last, "nil")
			// A failure passed on is not a decision; a refusal is: an error
			// this package names (a sentinel, a refusal it builds).
			m.Authority = m.Authority && namesOwnObject(st, last)
		}
	},
})

// namesOwnObject reports whether e mentions a package-level object of the
// mutated package: a sentinel error, or a function that builds a refusal.
func namesOwnObject(st *fileState, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := st.pkg.TypesInfo.Uses[id]; obj != nil && obj.Pkg() == st.pkg.Types && obj.Parent() == st.pkg.Types.Scope() {
				found = true
			}
		}
		return !found
	})
	return found
}
