package weakening

// This file writes a target file's weakenings as schemata: the original
// file, plus, for each weakening that only changes function bodies, a copy
// of every function it changes, renamed; the original function hands over
// to its weakened copy when that weakening's switch is on. One build then
// carries every such weakening of the file, and a test run picks one (see
// package variant).

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// Switched is a weakening written into a schemata file, and its number.
type Switched struct {
	W   *Weakening
	Num int
}

// SchemaSource returns src, the source of the file every weakening in ws
// targets, rewritten so that each weakening runs when its switch number
// (num(w)) is on. Weakenings that cannot be switched are returned apart, to
// be built alone: their edits do not apply, do not parse, or change more
// than function bodies (an import, a declaration, a signature).
func SchemaSource(src []byte, ws []*Weakening, num func(*Weakening) int) (out string, alone []*Weakening) {
	fset := token.NewFileSet()
	orig, err := parser.ParseFile(fset, "orig.go", src, parser.SkipObjectResolution)
	if err != nil {
		return string(src), ws
	}
	origFuncs, origRest := splitDecls(fset, src, orig)

	type insertion struct {
		at   int // byte offset just after the function body's opening brace
		text string
	}
	var inserts []insertion
	var copies []string
	for _, w := range ws {
		weak, err := w.Apply(src)
		if err != nil {
			alone = append(alone, w)
			continue
		}
		wf, err := parser.ParseFile(fset, "weak.go", weak, parser.SkipObjectResolution)
		if err != nil {
			alone = append(alone, w)
			continue
		}
		weakFuncs, weakRest := splitDecls(fset, weak, wf)
		changed, ok := changedBodies(origFuncs, weakFuncs, origRest, weakRest)
		if !ok || len(changed) == 0 {
			alone = append(alone, w)
			continue
		}
		n := num(w)
		var ins []insertion
		var cps []string
		for _, name := range changed {
			o, wk := origFuncs[name], weakFuncs[name]
			call, ok := forward(o.decl, fmt.Sprintf("%s_fencelabWeak%d", o.decl.Name.Name, n))
			if !ok {
				ins = nil
				break
			}
			ins = append(ins, insertion{at: o.bodyOpen + 1, text: fmt.Sprintf(" if _fencelabOn(%d) { %s };", n, call)})
			cps = append(cps, renamed(wk, fmt.Sprintf("%s_fencelabWeak%d", wk.decl.Name.Name, n)))
		}
		if ins == nil {
			alone = append(alone, w)
			continue
		}
		inserts = append(inserts, ins...)
		copies = append(copies, cps...)
	}
	sort.SliceStable(inserts, func(i, j int) bool { return inserts[i].at < inserts[j].at })
	var b strings.Builder
	pos := 0
	for _, in := range inserts {
		b.Write(src[pos:in.at])
		b.WriteString(in.text)
		pos = in.at
	}
	b.Write(src[pos:])
	for _, c := range copies {
		b.WriteString("\n\n" + c + "\n")
	}
	return b.String(), alone
}

// funcDecl is one function of a file and its source.
type funcDecl struct {
	decl     *ast.FuncDecl
	text     string // the whole declaration
	sig      string // the receiver, name and type: everything but the body
	body     string
	bodyOpen int // offset of the body's opening brace
	nameAt   int // offset of the name within text
}

// splitDecls returns a file's functions by key (Recv.Name), and the text of
// everything else: imports, types, variables, constants.
func splitDecls(fset *token.FileSet, src []byte, f *ast.File) (map[string]funcDecl, string) {
	funcs := map[string]funcDecl{}
	var rest bytes.Buffer
	rest.WriteString(f.Name.Name)
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			rest.Write(src[off(d.Pos()):off(d.End())])
			rest.WriteString("\n")
			continue
		}
		start, end := off(fd.Pos()), off(fd.End())
		funcs[funcKey(fd)] = funcDecl{
			decl:     fd,
			text:     string(src[start:end]),
			sig:      string(src[start:off(fd.Body.Lbrace)]),
			body:     string(src[off(fd.Body.Lbrace):end]),
			bodyOpen: off(fd.Body.Lbrace),
			nameAt:   off(fd.Name.Pos()) - start,
		}
	}
	return funcs, rest.String()
}

// funcKey names a function the way a file can hold it once: its receiver
// type and its name.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return "?." + fd.Name.Name
}

// changedBodies returns the functions whose bodies differ, in order, if
// nothing else differs: the same functions with the same signatures, and
// the same imports and other declarations.
func changedBodies(orig, weak map[string]funcDecl, origRest, weakRest string) ([]string, bool) {
	if origRest != weakRest || len(orig) != len(weak) {
		return nil, false
	}
	var changed []string
	for name, o := range orig {
		w, ok := weak[name]
		if !ok || w.sig != o.sig {
			return nil, false
		}
		if w.body != o.body {
			changed = append(changed, name)
		}
	}
	sort.Strings(changed)
	return changed, true
}

// forward returns the statement that hands a call of fd over to the
// function called to: `return recv.to(a, b)`, or the call and a bare
// return for a function with no results. ok is false when some parameter
// or the receiver has no name to pass on, or fd is generic.
func forward(fd *ast.FuncDecl, to string) (string, bool) {
	if fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
		return "", false
	}
	callee := to
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		r := fd.Recv.List[0]
		if len(r.Names) == 0 || r.Names[0].Name == "_" {
			return "", false
		}
		callee = r.Names[0].Name + "." + to
	}
	var args []string
	for i, p := range fd.Type.Params.List {
		if len(p.Names) == 0 {
			return "", false
		}
		for _, n := range p.Names {
			if n.Name == "_" {
				return "", false
			}
			arg := n.Name
			if _, variadic := p.Type.(*ast.Ellipsis); variadic && i == len(fd.Type.Params.List)-1 {
				arg += "..."
			}
			args = append(args, arg)
		}
	}
	call := callee + "(" + strings.Join(args, ", ") + ")"
	if fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
		return call + "; return", true
	}
	return "return " + call, true
}

// renamed is a function's declaration with its name replaced.
func renamed(f funcDecl, name string) string {
	return f.text[:f.nameAt] + name + f.text[f.nameAt+len(f.decl.Name.Name):]
}
