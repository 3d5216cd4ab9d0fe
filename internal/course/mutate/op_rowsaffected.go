package mutate

// This file is the rows-affected operator: the check of a RowsAffected
// result ignored, so the code acts as if its statement changed the row it
// aimed at. A compare-and-set whose verdict nobody reads is no
// compare-and-set.

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
)

// RowsAffected ignores the check of a RowsAffected result.
const RowsAffected Operator = "rows-affected"

var _ = register(&operator{
	name:      RowsAffected,
	doc:       "a RowsAffected check ignored: the code acts as if its statement changed one row",
	switched:  switchCond,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		held := map[types.Object]bool{} // the variables that hold a RowsAffected result
		return func(n ast.Node) {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if v := rowsAffectedVar(st, n); v != nil {
					held[v] = true
				}
			case *ast.BinaryExpr:
				says, ok := rowsAffectedSays(st, held, n)
				if !ok {
					return
				}
				// The check stays in the source, never decisive, so the
				// variable it reads is still used.
				repl := "(true || " + st.text(n) + ")"
				if !says {
					repl = "(false && " + st.text(n) + ")"
				}
				st.add(&Mutant{Operator: RowsAffected, Original: st.text(n), Mutated: strconv.FormatBool(says)}, n, repl)
			}
		}
	},
})

// rowsAffectedVar returns the variable as assigns a RowsAffected result
// to, or nil. Go declares a variable before its uses, so a walk in source
// order meets the assignment before the checks.
func rowsAffectedVar(st *fileState, as *ast.AssignStmt) types.Object {
	if len(as.Rhs) != 1 || len(as.Lhs) == 0 {
		return nil
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || !calls(call, "RowsAffected") {
		return nil
	}
	if id, ok := as.Lhs[0].(*ast.Ident); ok {
		return st.pkg.TypesInfo.ObjectOf(id)
	}
	return nil
}

// rowsAffectedSays reports, for a comparison of a RowsAffected result with
// a constant, what the comparison says when the statement changed exactly
// one row: ignoring the check means behaving as if it always says that.
func rowsAffectedSays(st *fileState, held map[types.Object]bool, b *ast.BinaryExpr) (says, ok bool) {
	if _, flips := relFlip[b.Op]; !flips {
		return false, false
	}
	id, other := b.X, b.Y
	if _, isIdent := id.(*ast.Ident); !isIdent {
		id, other = b.Y, b.X
	}
	ident, isIdent := id.(*ast.Ident)
	if !isIdent || !held[st.pkg.TypesInfo.ObjectOf(ident)] {
		return false, false
	}
	tv, found := st.pkg.TypesInfo.Types[other]
	if !found || tv.Value == nil {
		return false, false
	}
	one := constant.MakeInt64(1)
	x, y := one, tv.Value
	if id == b.Y {
		x, y = tv.Value, one
	}
	return constant.Compare(x, b.Op, y), true
}
