package mutate

// This file is the outside-tx operator: a statement meant for the open
// transaction sent outside it. A read that decides a write, made outside
// the transaction that writes, can be stale by the time the write
// commits: another process may act between the two. The code's shape
// allows the mistake where a call on a transaction (a value of a type
// named Tx) has a twin in scope: a variable, or a field of one, whose
// type has the same method with the same signature (the store's DB).

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// OutsideTx sends a call on the open transaction to the store outside it.
const OutsideTx Operator = "outside-tx"

var _ = register(&operator{
	name:      OutsideTx,
	doc:       "a call on the open transaction sent to the store outside it, where one in scope has the same method",
	switched:  switchLazy,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !isTx(st.pkg.TypesInfo.TypeOf(sel.X)) {
				return
			}
			method, ok := st.pkg.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok {
				return
			}
			twin := twinInScope(st, call.Pos(), method)
			if twin == "" {
				return
			}
			alt := string(st.src[st.offset(call.Pos()):st.offset(sel.X.Pos())]) + twin + string(st.src[st.offset(sel.X.End()):st.offset(call.End())])
			m := &Mutant{Operator: OutsideTx, Original: st.text(call), Mutated: alt}
			st.lazyType(m, st.pkg.TypesInfo.TypeOf(call)) // no type: built alone
			st.add(m, call, alt)
		}
	},
})

// isTx reports whether t is a transaction: a type named Tx, or a pointer
// to one.
func isTx(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Tx"
}

// twinInScope returns the first expression, in the order of the scopes
// around pos and then of names, that is a variable visible at pos or one
// of its fields, is not a transaction, and has a method called like
// method with the same signature. It returns "" if there is none.
func twinInScope(st *fileState, pos token.Pos, method *types.Func) string {
	inner := st.pkg.Types.Scope().Innermost(pos)
	var vars []*types.Var
	for s := inner; s != nil && s != st.pkg.Types.Scope(); s = s.Parent() {
		for _, name := range s.Names() {
			if _, obj := inner.LookupParent(name, pos); obj != nil {
				if v, ok := obj.(*types.Var); ok && !slices.Contains(vars, v) {
					vars = append(vars, v)
				}
			}
		}
	}
	for _, v := range vars {
		if hasTwin(st, v.Type(), method) {
			return v.Name()
		}
	}
	for _, v := range vars {
		if f := twinField(st, v.Type(), method); f != "" {
			return v.Name() + "." + f
		}
	}
	return ""
}

// hasTwin reports whether a value of type t, not a transaction, has a
// method like method.
func hasTwin(st *fileState, t types.Type, method *types.Func) bool {
	if isTx(t) {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, st.pkg.Types, method.Name())
	f, ok := obj.(*types.Func)
	return ok && types.Identical(f.Type(), method.Type())
}

// twinField returns the name of a field of a struct t (or of what t
// points to) that has a twin of method, or "".
func twinField(st *fileState, t types.Type, method *types.Func) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for i := range s.NumFields() {
		f := s.Field(i)
		if (f.Exported() || f.Pkg() == st.pkg.Types) && hasTwin(st, f.Type(), method) {
			return f.Name()
		}
	}
	return ""
}
