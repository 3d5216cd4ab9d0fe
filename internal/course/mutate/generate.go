package mutate

// This file walks one type-checked package and generates its mutants: the
// Go operators on the syntax tree, and the SQL operators on every string
// constant that holds a statement.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// authorityVerbs are the words in a function's name that say it decides
// who may act: its conditions can never be excused as unreachable.
var authorityVerbs = []string{"claim", "complete", "finish", "deadletter", "admit", "acquire", "release", "markrunning", "decided"}

// generator holds what the walk of one package needs.
type generator struct {
	pkg  *packages.Package
	rel  string // the package folder relative to the module root
	root string
	out  []*Mutant
	// rowsAffected are the variables that hold a RowsAffected result.
	rowsAffected map[types.Object]bool
	// besideError are the integer literals a return statement hands back
	// beside an error that is not nil: see besideAnError.
	besideError map[*ast.BasicLit]bool
}

// generate returns the mutants of one loaded package, in source order.
func generate(root string, pkg *packages.Package) []*Mutant {
	rel, _ := filepath.Rel(root, pkg.Dir)
	g := &generator{pkg: pkg, rel: filepath.ToSlash(rel), root: root, rowsAffected: map[types.Object]bool{}, besideError: map[*ast.BasicLit]bool{}}
	for i, f := range pkg.Syntax {
		name := pkg.CompiledGoFiles[i]
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src := g.source(name)
		if src == nil {
			continue
		}
		g.file(f, name, src)
	}
	assignIDs(g.out)
	return g.out
}

// fileState is the walk of one file.
type fileState struct {
	*generator
	path  string // relative to the module root, slash-separated
	src   []byte
	fset  *token.FileSet
	fn    string // the enclosing declaration's name
	inFn  bool   // inside a function body: a runtime switch can reach it
	inCon bool   // inside a constant declaration or an array length
	// constAt is the offset of the "const" keyword while the walk is in
	// an unexported package-level constant declared alone (const x = 2),
	// else 0.
	constAt int
}

func (g *generator) source(abs string) []byte {
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	return src
}

func (g *generator) file(f *ast.File, abs string, src []byte) {
	rel, _ := filepath.Rel(g.root, abs)
	st := &fileState{generator: g, path: filepath.ToSlash(rel), src: src, fset: g.pkg.Fset}
	// First pass: the variables that hold a RowsAffected result.
	ast.Inspect(f, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
			if call, ok := as.Rhs[0].(*ast.CallExpr); ok && calls(call, "RowsAffected") && len(as.Lhs) > 0 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					if obj := g.pkg.TypesInfo.ObjectOf(id); obj != nil {
						g.rowsAffected[obj] = true
					}
				}
			}
		}
		return true
	})
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			st.fn, st.inFn, st.inCon, st.constAt = funcName(d), true, false, 0
			if d.Body != nil {
				st.walk(d.Body)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || isBlank(vs.Names) {
					continue // var _ T = ...: a compile-time check, nothing runs
				}
				st.fn, st.inFn, st.inCon, st.constAt = vs.Names[0].Name, false, d.Tok == token.CONST, 0
				if d.Tok == token.CONST && !d.Lparen.IsValid() && len(vs.Names) == 1 && !vs.Names[0].IsExported() {
					st.constAt = st.offset(d.TokPos)
				}
				for _, v := range vs.Values {
					st.walk(v)
				}
			}
		}
	}
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

// walk visits n and everything under it, remembering when it enters a
// local constant declaration or an array length (places only a constant
// may stand, so no runtime switch).
func (st *fileState) walk(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeclStmt:
			if gd, ok := n.Decl.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				saved := st.inCon
				st.inCon = true
				for _, spec := range gd.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok {
						for _, v := range vs.Values {
							st.walk(v)
						}
					}
				}
				st.inCon = saved
				return false
			}
		case *ast.ArrayType:
			if n.Len != nil {
				saved := st.inCon
				st.inCon = true
				st.walk(n.Len)
				st.inCon = saved
			}
			return false
		case *ast.CompositeLit:
			// Keys of an array or slice literal must be constants.
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					saved := st.inCon
					st.inCon = true
					st.walk(kv.Key)
					st.inCon = saved
					st.walk(kv.Value)
				} else {
					st.walk(e)
				}
			}
			if n.Type != nil {
				st.walk(n.Type)
			}
			return false
		case *ast.BinaryExpr:
			st.binary(n)
		case *ast.UnaryExpr:
			if n.Op == token.NOT {
				st.add(&Mutant{Operator: Not, Original: st.text(n), Mutated: st.text(n.X)}, n, st.text(n.X))
			}
		case *ast.IfStmt:
			st.ifErr(n)
		case *ast.ReturnStmt:
			st.besideAnError(n)
		case *ast.BasicLit:
			st.literal(n)
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok && !calls(call, "panic") {
				st.addStmt(n)
			}
		case *ast.DeferStmt:
			st.addStmt(n)
		}
		return true
	})
}

// text is the source of n.
func (st *fileState) text(n ast.Node) string {
	return string(st.src[st.offset(n.Pos()):st.offset(n.End())])
}

func (st *fileState) offset(p token.Pos) int { return st.fset.Position(p).Offset }

// add records m as replacing n's source with replacement.
func (st *fileState) add(m *Mutant, n ast.Node, replacement string) {
	m.Package, m.File, m.Func = st.rel, st.path, st.fn
	m.Line = st.fset.Position(n.Pos()).Line
	m.start, m.end = st.offset(n.Pos()), st.offset(n.End())
	m.original = string(st.src[m.start:m.end])
	m.replacement = replacement
	m.schema = st.inFn && !st.inCon
	if st.inCon && !st.inFn {
		m.constAt = st.constAt
	}
	if !m.Operator.isSQL() && m.Operator != IntConst && m.Operator != CallDelete && m.Operator != ErrCheck {
		m.Authority = st.decidesAuthority()
	}
	st.out = append(st.out, m)
}

// decidesAuthority reports whether the current function decides who may act.
func (st *fileState) decidesAuthority() bool {
	name := strings.ToLower(st.fn)
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	for _, v := range authorityVerbs {
		if strings.Contains(name, v) {
			return true
		}
	}
	return false
}

// relFlip maps each relational operator to the one its mutant uses.
var relFlip = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS,
	token.GTR: token.GEQ, token.GEQ: token.GTR,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
}

// binary generates the mutants of a binary expression: a flipped
// relational operator, a dropped operand of && or ||, and an ignored
// RowsAffected check.
func (st *fileState) binary(b *ast.BinaryExpr) {
	x, y := st.text(b.X), st.text(b.Y)
	switch b.Op {
	case token.LAND, token.LOR:
		st.add(&Mutant{Operator: CondOperand, Original: st.text(b), Mutated: x}, b, x)
		st.add(&Mutant{Operator: CondOperand, Original: st.text(b), Mutated: y}, b, y)
		return
	}
	flip, ok := relFlip[b.Op]
	if !ok {
		return
	}
	if isNil(b.X) || isNil(b.Y) {
		return // a flipped nil check is a crash, not a mistake; see ErrCheck
	}
	mutated := x + " " + flip.String() + " " + y
	st.add(&Mutant{Operator: RelOp, Original: st.text(b), Mutated: mutated}, b, mutated)
	if held, ok := st.rowsAffectedSays(b); ok {
		word := strconv.FormatBool(held)
		// The check stays in the source, never decisive, so the variable
		// it reads is still used.
		repl := "(true || " + st.text(b) + ")"
		if !held {
			repl = "(false && " + st.text(b) + ")"
		}
		st.add(&Mutant{Operator: RowsAffected, Original: st.text(b), Mutated: word}, b, repl)
	}
}

// rowsAffectedSays reports, for a comparison of a RowsAffected result with
// a constant, what the comparison says when the statement changed exactly
// one row: ignoring the check means behaving as if it always says that.
func (st *fileState) rowsAffectedSays(b *ast.BinaryExpr) (held, ok bool) {
	id, other := b.X, b.Y
	if _, isIdent := id.(*ast.Ident); !isIdent {
		id, other = b.Y, b.X
	}
	ident, isIdent := id.(*ast.Ident)
	if !isIdent || !st.rowsAffected[st.pkg.TypesInfo.ObjectOf(ident)] {
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

// ifErr generates the mutant that removes an `if err != nil { return ... }`:
// its condition becomes false (keeping err used, so the file still builds).
func (st *fileState) ifErr(n *ast.IfStmt) {
	b, ok := n.Cond.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ || !isNil(b.Y) || len(n.Body.List) == 0 {
		return
	}
	if _, ok := n.Body.List[len(n.Body.List)-1].(*ast.ReturnStmt); !ok {
		return
	}
	t := st.pkg.TypesInfo.TypeOf(b.X)
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	if t == nil || !types.Implements(t, errType) {
		return
	}
	m := &Mutant{Operator: ErrCheck, Original: "if " + st.text(b) + " { " + oneLine(st.text(n.Body.List[0])) + " }", Mutated: ""}
	st.add(m, b, "(false && "+st.text(b)+")")
}

// addStmt generates the mutant that deletes a call statement.
func (st *fileState) addStmt(n ast.Stmt) {
	m := &Mutant{Operator: CallDelete, Original: st.text(n), stmt: true}
	st.add(m, n, "")
}

// literal generates the mutants of a literal: c+1 and c-1 for an integer,
// the SQL operators for a string that holds a statement.
func (st *fileState) literal(lit *ast.BasicLit) {
	switch lit.Kind {
	case token.INT:
		st.intConst(lit)
	case token.STRING:
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !looksLikeSQL(s) {
			return
		}
		write := false
		for _, k := range []string{"UPDATE", "INSERT", "DELETE", "REPLACE"} {
			if strings.HasPrefix(strings.TrimSpace(s), k) {
				write = true
			}
		}
		for _, sm := range mutateSQL(s) {
			m := &Mutant{Operator: sm.op, Original: sm.original, Mutated: sm.mutated}
			st.add(m, lit, requote(lit.Value, sm.sql))
			m.Authority = sm.op == SQLBegin || sm.where && write
			m.sqlHead = sm.head
		}
	}
}

// requote writes s as a Go string literal in the style of orig.
func requote(orig, s string) string {
	if strings.HasPrefix(orig, "`") && !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// besideAnError marks the integer literals ret returns beside an error
// that is not nil, as in `return 0, err`. By Go's convention a caller that
// gets an error reads no other result, so c+1 and c-1 there could only be
// equivalent mutants: they are not generated. A result that calls a
// function keeps its literals, since the call may do something.
func (st *fileState) besideAnError(ret *ast.ReturnStmt) {
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
			st.besideError[lit] = !call
		}
	}
}

// isError reports whether e has type error and is not the nil literal.
func (st *fileState) isError(e ast.Expr) bool {
	tv, ok := st.pkg.TypesInfo.Types[e]
	if !ok || tv.IsNil() {
		return false
	}
	return types.Identical(tv.Type, types.Universe.Lookup("error").Type())
}

// intConst generates c+1 and c-1 for an integer literal whose type is an
// integer type this package can name, unless it is returned beside an
// error.
func (st *fileState) intConst(lit *ast.BasicLit) {
	if st.besideError[lit] {
		return
	}
	tv, ok := st.pkg.TypesInfo.Types[lit]
	if !ok || tv.Value == nil {
		return
	}
	typ := tv.Type
	name := "int"
	if b, ok := typ.(*types.Basic); ok {
		if b.Info()&types.IsInteger == 0 {
			return
		}
		if b.Info()&types.IsUntyped == 0 {
			name = b.Name()
		}
	} else if n, ok := typ.(*types.Named); ok {
		if n.Obj().Pkg() != st.pkg.Types {
			return
		}
		if b, ok := n.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return
		}
		name = n.Obj().Name()
	} else {
		return
	}
	v, exact := constant.Int64Val(tv.Value)
	if !exact {
		return
	}
	for _, d := range []int64{1, -1} {
		nv := v + d
		if !fits(typ, nv) {
			continue
		}
		text := formatLike(lit.Value, nv)
		m := &Mutant{Operator: IntConst, Original: lit.Value, Mutated: text, typ: name}
		st.add(m, lit, text)
	}
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
