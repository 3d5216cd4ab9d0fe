package mutate

// This file is the clamp operator: a bound dropped. A call to the builtin
// min or max is replaced by one of its arguments, and a call to a function
// the declaration lists as a clamp (Package.Clamps: clock.Expiry) by the
// sum it guards. Near the end of time an unclamped lease wraps around and
// ends before it starts.

import (
	"go/ast"
	"go/types"
	"strings"
)

// Clamp replaces a min, max or declared clamp call with what it bounds.
const Clamp Operator = "clamp"

var _ = register(&operator{
	name:      Clamp,
	doc:       "a bound dropped: min or max replaced by an argument, a declared clamp (clock.Expiry) by the sum it guards",
	switched:  switchLazy,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			var alts []string
			name, pkg := callee(st, call)
			switch {
			case pkg == "" && (name == "min" || name == "max"):
				alts = unboundArgs(st, call)
			case pkg != "":
				alts = declaredClamp(st, pkg, name, call)
			}
			for _, alt := range alts {
				m := &Mutant{Operator: Clamp, Original: st.text(call), Mutated: alt}
				st.lazyType(m, st.pkg.TypesInfo.TypeOf(call)) // no type: built alone
				st.add(m, call, "("+alt+")")
				if pkg != "" {
					// The clamp may be the file's only use of its package.
					m.keep = st.text(call.Fun)
				}
			}
		}
	},
})

// callee names what call calls: a builtin (pkg ""), or a function of
// the package with path pkg. It returns "", "" for anything else.
func callee(st *fileState, call *ast.CallExpr) (name, pkg string) {
	var id *ast.Ident
	switch f := call.Fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return "", ""
	}
	switch obj := st.pkg.TypesInfo.Uses[id].(type) {
	case *types.Builtin:
		return obj.Name(), ""
	case *types.Func:
		if obj.Pkg() != nil && obj.Type().(*types.Signature).Recv() == nil {
			return obj.Name(), obj.Pkg().Path()
		}
	}
	return "", ""
}

// unboundArgs returns the arguments of a min or max call that are not
// constants: each one alone is the call without its bound.
func unboundArgs(st *fileState, call *ast.CallExpr) []string {
	var out []string
	for _, a := range call.Args {
		if tv := st.pkg.TypesInfo.Types[a]; tv.Value == nil {
			out = append(out, st.text(a))
		}
	}
	if len(call.Args) < 2 {
		return nil
	}
	return out
}

// declaredClamp returns the unclamped sum for a call to a clamp the
// declaration lists, or nil.
func declaredClamp(st *fileState, pkgPath, name string, call *ast.CallExpr) []string {
	row, ok := st.tree.Lookup(strings.TrimPrefix(pkgPath, st.module+"/"))
	if !ok || row.Clamps[name] == nil || call.Ellipsis.IsValid() {
		return nil
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		args[i] = operand(st, a)
	}
	return []string{row.Clamps[name](args)}
}

// operand is e's source, in parentheses unless it is one operand already
// (a name, a selector, a literal, a call, an index).
func operand(st *fileState, e ast.Expr) string {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.BasicLit, *ast.CallExpr, *ast.ParenExpr, *ast.IndexExpr:
		return st.text(e)
	}
	return "(" + st.text(e) + ")"
}
