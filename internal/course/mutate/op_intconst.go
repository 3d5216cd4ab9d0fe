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
// a literal returned beside an error that is not nil (`return 0, err`): by
// Go's convention a caller that gets an error reads no other result, so
// changing it could only make equivalent mutants. It leaves exit statuses
// to ExitStatus.
const IntConst Operator = "int-const"

var _ = register(&operator{
	name:     IntConst,
	doc:      "an integer c made c+1 and c-1 (not one returned beside an error, which no caller reads)",
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
// not nil, as in `return 0, err`. A result that calls a function keeps its
// literals, since the call may do something. Return statements come before
// their literals in the walk.
func markBesideAnError(st *fileState, ret *ast.ReturnStmt, marks map[*ast.BasicLit]bool) {
	n := len(ret.Results)
	if n < 2 || !st.isError(ret.Results[n-1]) {
		return
	}
	for _, r := range ret.Results[:n-1] {
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

// intConst generates c+1 and c-1 for an integer literal whose type is an
// integer type this package can name.
func intConst(st *fileState, lit *ast.BasicLit) {
	tv, ok := st.pkg.TypesInfo.Types[lit]
	if !ok || tv.Value == nil {
		return
	}
	name, ok := integerTypeName(st, tv.Type)
	if !ok {
		return
	}
	v, exact := constant.Int64Val(tv.Value)
	if !exact {
		return
	}
	for _, d := range []int64{1, -1} {
		if nv := v + d; fits(tv.Type, nv) {
			text := formatLike(lit.Value, nv)
			st.add(&Mutant{Operator: IntConst, Original: lit.Value, Mutated: text, typ: name}, lit, text)
		}
	}
}

// integerTypeName names t in this package's code ("int" for an untyped
// constant), if t is an integer type the package can name.
func integerTypeName(st *fileState, t types.Type) (string, bool) {
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsInteger == 0 {
			return "", false
		}
		if t.Info()&types.IsUntyped != 0 {
			return "int", true
		}
		return t.Name(), true
	case *types.Named:
		b, ok := t.Underlying().(*types.Basic)
		if t.Obj().Pkg() != st.pkg.Types || !ok || b.Info()&types.IsInteger == 0 {
			return "", false
		}
		return t.Obj().Name(), true
	}
	return "", false
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
