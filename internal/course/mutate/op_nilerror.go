package mutate

// This file is the nil-error operator: a returned error replaced by nil,
// so the caller is told all went well. In a function that decides who may
// act, a refusal turned into nil is a refusal the caller never hears of.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// NilError replaces the error a return statement gives back with nil; an
// expression there, a call included, is then not evaluated, as in the
// source it replaces. It leaves out the return that passes a failure on
// from inside the `if err != nil` that caught it (`return nil, err`, or
// err wrapped): err-check already makes that failure go unnoticed, so the
// two would be one mistake counted twice. What it changes is an error a
// function makes or decides: a refusal, a sentinel, the last result.
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
			if passesOn(st, last) {
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

// passesOn reports whether e, returned by a statement directly in the body
// of `if err != nil`, mentions that err: the failure it caught, passed on.
func passesOn(st *fileState, e ast.Expr) bool {
	n := len(st.stack)
	if n < 2 {
		return false
	}
	body, ok := st.stack[n-1].(*ast.BlockStmt)
	ifs, ok2 := st.stack[n-2].(*ast.IfStmt)
	if !ok || !ok2 || ifs.Body != body {
		return false
	}
	cond, ok := ifs.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ || !isNil(cond.Y) {
		return false
	}
	checked, ok := cond.X.(*ast.Ident)
	if !ok {
		return false
	}
	obj := st.pkg.TypesInfo.ObjectOf(checked)
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && obj != nil && st.pkg.TypesInfo.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
