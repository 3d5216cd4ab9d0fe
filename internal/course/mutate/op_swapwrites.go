package mutate

// This file is the swap-writes operator: two adjacent writes swapped. A
// record that says "finished" (or "running") before the step it describes
// has committed tells a reader something that may never happen; a write
// that lands before the one it depends on is seen without it.
//
// A write is a statement that, outside function literals, calls a writer:
// a method or function named like a database or file write (Exec,
// ExecContext, Immediate, Write, WriteString, WriteFile), or a function of
// the same package that calls one. Every swap in one block replaces the
// block's whole run of statements, so the shared build switches them as
// one site and the statements keep their scope.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/packages"
)

// SwapWrites swaps two adjacent write statements.
const SwapWrites Operator = "swap-writes"

var _ = register(&operator{
	name:      SwapWrites,
	doc:       "two adjacent writes swapped (calls that reach Exec, Immediate or a file's Write)",
	switched:  switchStmts,
	mayDecide: true,
	visitor: func(st *fileState) func(ast.Node) {
		return func(n ast.Node) {
			b, ok := n.(*ast.BlockStmt)
			if !ok || len(b.List) < 2 || hasLabel(b) {
				return
			}
			from, to := st.offset(b.List[0].Pos()), st.offset(b.List[len(b.List)-1].End())
			for i := 0; i+1 < len(b.List); i++ {
				x, y := b.List[i], b.List[i+1]
				if !swappable(x) || !swappable(y) || !st.writes(x) || !st.writes(y) {
					continue
				}
				xs, ys := st.offset(x.Pos()), st.offset(y.Pos())
				xe, ye := st.offset(x.End()), st.offset(y.End())
				alt := string(st.src[from:xs]) + string(st.src[ys:ye]) + string(st.src[xe:ys]) + string(st.src[xs:xe]) + string(st.src[ye:to])
				m := &Mutant{Operator: SwapWrites, Original: st.text(x) + "; " + st.text(y), Mutated: st.text(y) + "; " + st.text(x)}
				st.add(m, b, alt)
				m.Line = st.fset.Position(x.Pos()).Line
				m.start, m.end, m.original = from, to, string(st.src[from:to])
			}
		}
	},
})

// writerNames are the calls that write: a statement to the database, a
// transaction, a file.
var writerNames = []string{"Exec", "ExecContext", "Immediate", "Write", "WriteString", "WriteFile"}

// swappable reports whether s can change places with its neighbour and
// keep its meaning as a statement: it declares nothing the rest of the
// block could use, and does not leave the block.
func swappable(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.IfStmt:
		return true
	case *ast.AssignStmt:
		return s.Tok != token.DEFINE
	}
	return false
}

// hasLabel reports whether a block holds a labelled statement: copied into
// two branches of a switch, its label would be declared twice.
func hasLabel(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if _, ok := n.(*ast.LabeledStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// writes reports whether s calls a writer outside function literals.
func (st *fileState) writes(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if isWriterCall(st.pkg.TypesInfo, n, st.writers) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isWriterCall reports whether call calls a writer by name, or a function
// in known.
func isWriterCall(info *types.Info, call *ast.CallExpr, known map[*types.Func]bool) bool {
	var id *ast.Ident
	switch f := call.Fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	if slices.Contains(writerNames, id.Name) {
		return true
	}
	fn, ok := info.Uses[id].(*types.Func)
	return ok && known[fn.Origin()]
}

// writers returns the package's functions that call a writer, directly or
// through each other.
func writers(pkg *packages.Package) map[*types.Func]bool {
	bodies := map[*types.Func]*ast.BlockStmt{}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					bodies[fn] = fd.Body
				}
			}
		}
	}
	known := map[*types.Func]bool{}
	for changed := true; changed; {
		changed = false
		for fn, body := range bodies {
			if known[fn] {
				continue
			}
			ast.Inspect(body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && !known[fn] && isWriterCall(pkg.TypesInfo, call, known) {
					known[fn], changed = true, true
				}
				return !known[fn]
			})
		}
	}
	return known
}
