package mutate

// This file walks one type-checked package and hands every node of its
// code to the registered Go operators, and every string constant that
// holds a statement to the SQL family. What the operators need to know of
// where a node stands (its function, whether a runtime switch can reach
// it, the nodes around it) lives here.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// generator holds what the walk of one package needs.
type generator struct {
	pkg    *packages.Package
	rel    string  // the package folder relative to the module root
	module string  // the module path
	row    Package // the package's row in the declaration
	tree   Tree
	root   string
	// writers are the package's functions that write: see op_swapwrites.go.
	writers map[*types.Func]bool
	out     []*Mutant
}

// generate returns the mutants of one loaded package, in source order. A
// file of the package that cannot be read is an error.
func generate(root string, tree Tree, pkg *packages.Package) ([]*Mutant, error) {
	rel, err := filepath.Rel(root, pkg.Dir)
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	rel = filepath.ToSlash(rel)
	row, ok := tree.Lookup(rel)
	if !ok || !row.Mutated() {
		return nil, fmt.Errorf("%w: %s is not a package the engine mutates", errLayers, rel)
	}
	if gone := row.missing(pkg.Types, pkg.CompiledGoFiles); len(gone) > 0 {
		return nil, fmt.Errorf("%w names functions or files %s does not have: %s (renamed? say so in layers.go)", errLayers, rel, strings.Join(gone, ", "))
	}
	g := &generator{pkg: pkg, rel: rel, row: row, tree: tree, root: root,
		module: strings.TrimSuffix(pkg.PkgPath, "/"+rel)}
	g.writers = writers(pkg)
	for i, f := range pkg.Syntax {
		name := pkg.CompiledGoFiles[i]
		if strings.HasSuffix(name, "_test.go") || row.FilesNotMutated[filepath.Base(name)] != "" {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
		if err := g.file(f, name, src); err != nil {
			return nil, err
		}
	}
	assignIDs(g.out)
	return g.out, nil
}

// fileState is the walk of one file.
type fileState struct {
	*generator
	path string // relative to the module root, slash-separated
	src  []byte
	fset *token.FileSet
	fn   string // the enclosing declaration's name (Mailbox.Claim, or a constant's)
	// fnDecl is the enclosing function declaration; nil outside one.
	fnDecl *ast.FuncDecl
	// declSum is a hash of the enclosing declaration's source: a mutant's
	// verdict is reused only while it holds.
	declSum string
	inFn    bool // inside a function body: a runtime switch can reach it
	inVar   bool // in a package-level variable's value: so can a switch (see genDecl)
	inCon   bool // inside a constant declaration or an array length
	// constAt is the offset of the "const" keyword while the walk is in
	// an unexported package-level constant declared alone (const x = 2),
	// else 0.
	constAt int
	// stack holds the nodes the walk is inside, outermost first.
	stack []ast.Node
	visit []func(ast.Node)
}

// file walks one file's declarations.
func (g *generator) file(f *ast.File, abs string, src []byte) error {
	rel, err := filepath.Rel(g.root, abs)
	if err != nil {
		return fmt.Errorf("mutate: %w", err)
	}
	st := &fileState{generator: g, path: filepath.ToSlash(rel), src: src, fset: g.pkg.Fset}
	for _, op := range goOperators(g.row.Layer) {
		st.visit = append(st.visit, op.visitor(st))
	}
	if g.row.Layer != Tooling {
		st.visit = append(st.visit, st.sqlLiteral)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			st.fn, st.fnDecl, st.inFn, st.inVar, st.inCon, st.constAt = funcName(d), d, true, false, false, 0
			st.declSum = st.sum(d.Type.Pos(), d.End())
			if d.Body != nil {
				st.walk(d.Body)
			}
		case *ast.GenDecl:
			st.genDecl(d)
		}
	}
	return nil
}

// genDecl walks the values of a package-level var or const declaration.
// A variable's value is computed when the package initializes, after the
// switch file's variable (it depends on it), so a switch reaches it. A
// constant declaration whose names are all unexported may become a
// variable declaration in a shared build, if its uses allow it (see
// switchConstants); constAt marks where its keyword is.
func (st *fileState) genDecl(d *ast.GenDecl) {
	constAt := 0
	if d.Tok == token.CONST && allUnexported(d) {
		constAt = st.offset(d.TokPos)
	}
	for _, spec := range d.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok || isBlank(vs.Names) {
			continue // var _ T = ...: a compile-time check, nothing runs
		}
		st.fn, st.fnDecl, st.inFn, st.constAt = vs.Names[0].Name, nil, false, constAt
		st.inVar, st.inCon = d.Tok == token.VAR, d.Tok == token.CONST
		st.declSum = st.sum(d.Pos(), d.End())
		for _, v := range vs.Values {
			st.walk(v)
		}
	}
}

// allUnexported reports whether every name a declaration declares is
// unexported: another package can use none of them where only a constant
// may stand.
func allUnexported(d *ast.GenDecl) bool {
	for _, spec := range d.Specs {
		if vs, ok := spec.(*ast.ValueSpec); ok {
			for _, n := range vs.Names {
				if n.IsExported() {
					return false
				}
			}
		}
	}
	return true
}

// sum hashes the source between two positions.
func (st *fileState) sum(from, to token.Pos) string {
	h := sha256.Sum256(st.src[st.offset(from):st.offset(to)])
	return hex.EncodeToString(h[:8])
}

// walk visits n and everything under it, handing each node to every
// operator, and remembers when it enters a local constant declaration, an
// array length or a composite literal's key (places only a constant may
// stand, so no runtime switch).
func (st *fileState) walk(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			st.stack = st.stack[:len(st.stack)-1]
			return false
		}
		if st.constantOnly(n) {
			return false
		}
		for _, v := range st.visit {
			v(n)
		}
		st.stack = append(st.stack, n)
		return true
	})
}

// constantOnly walks the parts of n where only a constant may stand with
// inCon set, the rest as usual, and reports whether it did (so the caller
// does not walk n again).
func (st *fileState) constantOnly(n ast.Node) bool {
	inConstant := func(n ast.Node) {
		saved := st.inCon
		st.inCon = true
		st.walk(n)
		st.inCon = saved
	}
	switch n := n.(type) {
	case *ast.DeclStmt:
		gd, ok := n.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return false
		}
		for _, spec := range gd.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok {
				for _, v := range vs.Values {
					inConstant(v)
				}
			}
		}
	case *ast.ArrayType:
		if n.Len != nil {
			inConstant(n.Len)
		}
	case *ast.CompositeLit:
		for _, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				inConstant(kv.Key) // keys of an array or slice literal are constants
				st.walk(kv.Value)
			} else {
				st.walk(e)
			}
		}
		if n.Type != nil {
			st.walk(n.Type)
		}
	default:
		return false
	}
	return true
}

// text is the source of n.
func (st *fileState) text(n ast.Node) string {
	return string(st.src[st.offset(n.Pos()):st.offset(n.End())])
}

func (st *fileState) offset(p token.Pos) int { return st.fset.Position(p).Offset }

// add records m as replacing n's source with replacement. Its Authority
// is set if its operator may decide authority and the walk is in a
// function the package declares as deciding; the caller may narrow it.
func (st *fileState) add(m *Mutant, n ast.Node, replacement string) {
	m.Package, m.File, m.Func = st.rel, st.path, st.fn
	m.Line = st.fset.Position(n.Pos()).Line
	m.start, m.end = st.offset(n.Pos()), st.offset(n.End())
	m.original = string(st.src[m.start:m.end])
	m.replacement = replacement
	m.declSum = st.declSum
	// A lazy mutant whose type has no name here cannot be switched.
	m.schema = (st.inFn || st.inVar) && !st.inCon && (registry[m.Operator].switched != switchLazy || m.typ != "")
	if st.inCon && !st.inFn {
		m.constAt = st.constAt
	}
	m.Authority = registry[m.Operator].mayDecide && st.deciding()
	st.out = append(st.out, m)
}

// deciding reports whether the walk is in a function the package declares
// as deciding who may act.
func (st *fileState) deciding() bool { return st.fnDecl != nil && st.row.decides(st.fn) }

// results returns the result types of the innermost function around the
// walk: a function literal's, else the declaration's.
func (st *fileState) results() *types.Tuple {
	for i := len(st.stack) - 1; i >= 0; i-- {
		if lit, ok := st.stack[i].(*ast.FuncLit); ok {
			if sig, ok := st.pkg.TypesInfo.TypeOf(lit).(*types.Signature); ok {
				return sig.Results()
			}
			return nil
		}
	}
	if st.fnDecl == nil {
		return nil
	}
	if obj, ok := st.pkg.TypesInfo.Defs[st.fnDecl.Name].(*types.Func); ok {
		return obj.Type().(*types.Signature).Results()
	}
	return nil
}

// insideFuncLit reports whether the walk is inside a function literal.
func (st *fileState) insideFuncLit() bool {
	for _, n := range st.stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// funcName is a function's name, with its receiver's type for a method:
// Mailbox.Claim.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

// calls reports whether call is a method or function call named name.
func calls(call *ast.CallExpr, name string) bool {
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name == name
	case *ast.Ident:
		return f.Name == name
	}
	return false
}

// isBlank reports whether every name is _.
func isBlank(names []*ast.Ident) bool {
	for _, n := range names {
		if n.Name != "_" {
			return false
		}
	}
	return true
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// errorType is the predeclared error.
var errorType = types.Universe.Lookup("error").Type()

// isError reports whether e has type error and is not the nil literal.
func (st *fileState) isError(e ast.Expr) bool {
	tv, ok := st.pkg.TypesInfo.Types[e]
	if !ok || tv.IsNil() {
		return false
	}
	return types.Identical(tv.Type, errorType)
}

// isErrorOrNil reports whether e has type error or is the nil literal: the
// last result of a function that returns an error.
func (st *fileState) isErrorOrNil(e ast.Expr) bool {
	tv, ok := st.pkg.TypesInfo.Types[e]
	return ok && (tv.IsNil() || types.Identical(tv.Type, errorType))
}

// isFalse reports whether e is the boolean constant false: an ok that
// says the other results mean nothing.
func (st *fileState) isFalse(e ast.Expr) bool {
	tv, ok := st.pkg.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}
