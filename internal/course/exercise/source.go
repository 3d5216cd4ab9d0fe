package exercise

// This file holds the small operations on Go source that starting an
// exercise needs: find a function by name, cut byte ranges, and drop the
// imports an edit left unused, so the edited file still compiles.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// parseGo parses src with its comments.
func parseGo(name string, src []byte) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	return fset, f, nil
}

// funcName is how exercises name a function: "Recv.Method" for a method
// (the receiver's type without * or type parameters), the bare name
// otherwise.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// findFunc returns the declaration of the function called name in f.
func findFunc(f *ast.File, name string) (*ast.FuncDecl, bool) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && funcName(fd) == name {
			return fd, true
		}
	}
	return nil, false
}

// funcAt returns the name of the function declared around byte offset
// off of src, or "" if off is outside every function.
func funcAt(src []byte, off int) string {
	fset, f, err := parseGo("x.go", src)
	if err != nil {
		return ""
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if fset.Position(fd.Pos()).Offset <= off && off < fset.Position(fd.End()).Offset {
			return funcName(fd)
		}
	}
	return ""
}

// declRange returns the byte range of fd in src, its doc comment included,
// extended over the line break and one blank line after it, so cutting it
// leaves the file spaced as before.
func declRange(fset *token.FileSet, src []byte, fd *ast.FuncDecl) (start, end int) {
	start = fset.Position(fd.Pos()).Offset
	if fd.Doc != nil {
		start = fset.Position(fd.Doc.Pos()).Offset
	}
	end = fset.Position(fd.End()).Offset
	for i := 0; i < 2 && end < len(src) && src[end] == '\n'; i++ {
		end++
	}
	return start, end
}

// lineSpan returns the 1-based first and last line of src[start:end].
func lineSpan(src []byte, start, end int) (first, last int) {
	first = bytes.Count(src[:start], []byte("\n")) + 1
	if end > start {
		end--
	}
	last = bytes.Count(src[:end], []byte("\n")) + 1
	return first, max(first, last)
}

// versionElem is a module path's major version element.
var versionElem = regexp.MustCompile(`^v[0-9]+$`)

// importName returns the name a file refers to an import by: its explicit
// name, or the package name guessed from the path's last element (with a
// major-version element skipped and a "go-" prefix dropped).
func importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	p, _ := strconv.Unquote(spec.Path.Value)
	base := path.Base(p)
	if versionElem.MatchString(base) {
		base = path.Base(path.Dir(p))
	}
	base = strings.TrimPrefix(base, "go-")
	return strings.ReplaceAll(base, "-", "_")
}

// pruneImports returns src without the imports nothing in it refers to
// any more, gofmt-formatted. Blank and dot imports are kept.
func pruneImports(src []byte) ([]byte, error) {
	fset, f, err := parseGo("x.go", src)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	type span struct{ start, end int }
	var cuts []span
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var dead []*ast.ImportSpec
		for _, s := range gd.Specs {
			spec := s.(*ast.ImportSpec)
			if name := importName(spec); name != "_" && name != "." && !used[name] {
				dead = append(dead, spec)
			}
		}
		if len(dead) == 0 {
			continue
		}
		if len(dead) == len(gd.Specs) {
			cuts = append(cuts, span{lineStart(src, fset.Position(gd.Pos()).Offset), lineEnd(src, fset.Position(gd.End()).Offset)})
			continue
		}
		for _, spec := range dead {
			start := fset.Position(spec.Pos()).Offset
			if spec.Doc != nil {
				start = fset.Position(spec.Doc.Pos()).Offset
			}
			end := fset.Position(spec.End()).Offset
			if spec.Comment != nil {
				end = fset.Position(spec.Comment.End()).Offset
			}
			cuts = append(cuts, span{lineStart(src, start), lineEnd(src, end)})
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].start > cuts[j].start })
	out := append([]byte(nil), src...)
	for _, c := range cuts {
		out = append(out[:c.start], out[c.end:]...)
	}
	formatted, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	return formatted, nil
}

// lineStart returns the offset of the start of the line holding off.
func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEnd returns the offset just past the line break ending the line
// that holds off (or len(src)).
func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}
