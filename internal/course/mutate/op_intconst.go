package mutate

// This file is the int-const operator: an integer constant c made c+1 and
// c-1, the off-by-one in a budget, a length or a limit.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// IntConst replaces an integer constant c with c+1 or c-1. It leaves out
// a literal returned beside an error that is not nil (`return 0, err`) or
// beside an ok that is false (`return 0, false`, `return 0, false, nil`):
// by Go's conventions a caller that gets an error, or no ok, reads no
// other result, so changing it could only make equivalent mutants. It
// leaves exit statuses to ExitStatus.
const IntConst Operator = "int-const"

var _ = register(&operator{
	name:     IntConst,
	doc:      "an integer c made c+1 and c-1 (not one returned beside an error or a false ok, which no caller reads)",
	switched: switchPick,
	visitor: func(st *fileState) func(ast.Node) {
		besideError := map[*ast.BasicLit]bool{}
		return func(n ast.Node) {
			switch n := n.(type) {
			case *ast.ReturnStmt:
				markBesideAnError(st, n, besideError)
			case *ast.BasicLit:
				if n.Kind == token.INT && !besideError[n] && !st.exitStatus(n) {
					intConst(st, n)
				}
			}
		}
	},
})

// markBesideAnError marks the literals ret returns beside an error that is
// not nil, as in `return 0, err`, or beside an ok that is false, as in
// `return 0, false` and `return 0, false, nil`. A result that calls a
// function keeps its literals, since the call may do something. Return
// statements come before their literals in the walk.
func markBesideAnError(st *fileState, ret *ast.ReturnStmt, marks map[*ast.BasicLit]bool) {
	results := ret.Results
	n := len(results)
	switch {
	case n >= 2 && st.isError(results[n-1]):
		results = results[:n-1]
	case n >= 2 && st.isFalse(results[n-1]):
		results = results[:n-1]
	case n >= 3 && st.isFalse(results[n-2]) && st.isErrorOrNil(results[n-1]):
		results = results[:n-2]
	default:
		return
	}
	for _, r := range results {
		var lits []*ast.BasicLit
		call := false
		ast.Inspect(r, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.CallExpr:
				call = true
			case *ast.BasicLit:
				lits = append(lits, x)
			}
			return true
		})
		for _, lit := range lits {
			marks[lit] = !call
		}
	}
}

// intConst generates c+1 and c-1 for an integer literal whose type the
// package can name.
func intConst(st *fileState, lit *ast.BasicLit) {
	tv, ok := st.pkg.TypesInfo.Types[lit]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return
	}
	t := constantType(st, lit, tv.Type)
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return
	}
	v, exact := constant.Int64Val(tv.Value)
	if !exact {
		return
	}
	for _, d := range []int64{1, -1} {
		if nv := v + d; fits(t, nv) {
			text := formatLike(lit.Value, nv)
			m := &Mutant{Operator: IntConst, Original: lit.Value, Mutated: text}
			if !integerTypeName(st, m, t) {
				return
			}
			st.add(m, lit, text)
		}
	}
}

// constantType is the type the value of lit takes where it is used. An
// untyped literal inside a constant expression (tickClaimA - 1) keeps no
// type of its own: the outermost constant expression around it has the
// one it is converted to.
func constantType(st *fileState, lit *ast.BasicLit, t types.Type) types.Type {
	for i := len(st.stack) - 1; i >= 0; i-- {
		e, ok := st.stack[i].(ast.Expr)
		if !ok {
			break
		}
		tv, ok := st.pkg.TypesInfo.Types[e]
		if !ok || tv.Value == nil {
			break
		}
		t = tv.Type
	}
	return t
}

// integerTypeName sets m.typ to t as this package's code names it ("int"
// for an untyped constant; an alias of the types file for a type of
// another package), and reports whether it can.
func integerTypeName(st *fileState, m *Mutant, t types.Type) bool {
	if b, ok := t.(*types.Basic); ok {
		m.typ = b.Name()
		if b.Info()&types.IsUntyped != 0 {
			m.typ = "int"
		}
		return true
	}
	return st.lazyType(m, t)
}

// fits reports whether v is representable in the integer type t.
func fits(t types.Type, v int64) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	if b.Info()&types.IsUnsigned != 0 && v < 0 {
		return false
	}
	switch b.Kind() {
	case types.Int8:
		return v >= -128 && v <= 127
	case types.Uint8:
		return v <= 255
	case types.Int16:
		return v >= -32768 && v <= 32767
	case types.Uint16:
		return v <= 65535
	}
	return true
}

// formatLike writes v in the base lit was written in.
func formatLike(lit string, v int64) string {
	neg := ""
	if v < 0 {
		neg, v = "-", -v
	}
	l := strings.ToLower(lit)
	switch {
	case strings.HasPrefix(l, "0x"):
		return neg + lit[:2] + strconv.FormatInt(v, 16)
	case strings.HasPrefix(l, "0o"):
		return neg + lit[:2] + strconv.FormatInt(v, 8)
	case strings.HasPrefix(l, "0b"):
		return neg + lit[:2] + strconv.FormatInt(v, 2)
	}
	return neg + strconv.FormatInt(v, 10)
}
