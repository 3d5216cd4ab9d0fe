package mutate

// This file is the error-swap operator: an error replaced by another error
// in scope. When a transaction's work fails and its rollback fails too,
// the caller must get the work's error; returning the other one is the
// precedence mistake.

import (
	"go/ast"
	"go/types"
	"slices"
)

// ErrorSwap replaces an error variable that a return statement, or an
// assignment to an error, uses with another local error variable visible
// there.
const ErrorSwap Operator = "error-swap"

var _ = register(&operator{
	name:     ErrorSwap,
	doc:      "an error variable a return or an assignment of an error uses replaced by another error variable in scope",
	switched: switchLazy,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			var values []ast.Expr
			switch n := n.(type) {
			case *ast.ReturnStmt:
				values = n.Results
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) && st.isError(n.Lhs[0]) {
					values = n.Rhs
				}
			}
			if st.fnDecl == nil {
				return
			}
			for _, id := range errorIdents(st, values) {
				for _, other := range otherErrors(st, id) {
					m := &Mutant{Operator: ErrorSwap, Original: id.Name, Mutated: other, typ: "error"}
					st.add(m, id, other)
				}
			}
		}
	},
})

// errorIdents returns the identifiers of local error variables in
// values, outside function literals.
func errorIdents(st *fileState, values []ast.Expr) []*ast.Ident {
	var out []*ast.Ident
	for _, r := range values {
		ast.Inspect(r, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.Ident:
				if v, ok := st.pkg.TypesInfo.Uses[n].(*types.Var); ok && st.local(v) && types.Identical(v.Type(), errorType) {
					out = append(out, n)
				}
			}
			return true
		})
	}
	return out
}

// otherErrors returns the names of the other local error variables
// visible where id stands, in name order.
func otherErrors(st *fileState, id *ast.Ident) []string {
	self := st.pkg.TypesInfo.Uses[id]
	inner := st.pkg.Types.Scope().Innermost(id.Pos())
	var out []string
	for s := inner; s != nil && s != st.pkg.Types.Scope(); s = s.Parent() {
		for _, name := range s.Names() {
			if name == "_" || slices.Contains(out, name) {
				continue
			}
			_, obj := inner.LookupParent(name, id.Pos())
			if v, ok := obj.(*types.Var); ok && v != self && st.local(v) && types.Identical(v.Type(), errorType) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// local reports whether v is declared inside the function being walked.
func (st *fileState) local(v *types.Var) bool {
	return st.fnDecl != nil && v.Pos() >= st.fnDecl.Pos() && v.Pos() < st.fnDecl.End()
}
