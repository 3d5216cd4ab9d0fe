package mutate

// This file is the exit-status operator: the status a process exits with
// changed, 1 to 0 (a failure reported as success), 2 to 1 (misuse reported
// as a failed run) and 0 to 1. Scripts and CI read nothing else of a
// process, so a wrong status is a wrong answer. It changes the constants
// the Exits functions of the declaration return, and the argument of
// os.Exit.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// ExitStatus changes an exit status: 0 to 1, 1 to 0, 2 to 1.
const ExitStatus Operator = "exit-status"

var _ = register(&operator{
	name:     ExitStatus,
	doc:      "an exit status changed: 1 to 0, 2 to 1, 0 to 1 (in the declared Exits functions, and os.Exit)",
	switched: switchPick,
	tooling:  true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			lit, ok := n.(*ast.BasicLit)
			if !ok || !st.exitStatus(lit) {
				return
			}
			v, _ := constant.Int64Val(st.pkg.TypesInfo.Types[lit].Value)
			to, ok := exitChange[v]
			if !ok {
				return
			}
			text := strconv.FormatInt(to, 10)
			st.add(&Mutant{Operator: ExitStatus, Original: lit.Value, Mutated: text, typ: "int"}, lit, text)
		}
	},
})

// exitChange maps each exit status to the one its mutant returns.
var exitChange = map[int64]int64{0: 1, 1: 0, 2: 1}

// exitStatus reports whether lit is an exit status: the one result a
// return statement of a declared Exits function gives (not one inside a
// function literal), or the argument of os.Exit.
func (st *fileState) exitStatus(lit *ast.BasicLit) bool {
	if lit.Kind != token.INT || len(st.stack) == 0 {
		return false
	}
	switch parent := st.stack[len(st.stack)-1].(type) {
	case *ast.ReturnStmt:
		return len(parent.Results) == 1 && st.fnDecl != nil && st.row.exits(st.fn) && !st.insideFuncLit()
	case *ast.CallExpr:
		sel, ok := parent.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Exit" || len(parent.Args) != 1 {
			return false
		}
		fn, ok := st.pkg.TypesInfo.Uses[sel.Sel].(*types.Func)
		return ok && fn.Pkg() != nil && fn.Pkg().Path() == "os"
	}
	return false
}
