package mutate

// This file type-checks a package with some of its files replaced: one
// mutant applied alone (does it build at all?), or a whole schemata copy
// (does the shared build compile?). It runs in-process, in milliseconds,
// with the dependencies' types the loader already has.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// universe resolves imports to the packages the loader type-checked.
type universe map[string]*types.Package

// add records pkg and everything it imports. A complete package replaces
// a partial one of the same path (export data holds, of a package met
// through another's, only what that other uses).
func (u universe) add(pkg *types.Package) {
	if old, ok := u[pkg.Path()]; ok && (old.Complete() || !pkg.Complete()) {
		return
	}
	u[pkg.Path()] = pkg
	for _, imp := range pkg.Imports() {
		u.add(imp)
	}
}

// Import implements types.Importer.
func (u universe) Import(path string) (*types.Package, error) {
	if p, ok := u[path]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("package %s was not loaded", path)
}

// typecheck checks pkg with the files in replace (absolute path to source)
// standing in for its own, plus the extra sources. It returns the first
// error, or nil if the package compiles.
func typecheck(pkg *packages.Package, u universe, replace map[string]string, extra ...string) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.CompiledGoFiles {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		var src any
		if s, ok := replace[name]; ok {
			src = s
		} else {
			b, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			src = b
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	for i, src := range extra {
		f, err := parser.ParseFile(fset, fmt.Sprintf("extra%d.go", i), src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	var first error
	conf := types.Config{
		Importer: u,
		Error: func(err error) {
			if first == nil {
				first = err
			}
		},
	}
	// A fresh package path keeps these checks from touching the loaded one.
	_, _ = conf.Check(pkg.PkgPath, fset, files, nil)
	return first
}

// apply returns src with m applied on its own.
func apply(src []byte, m *Mutant) string {
	out := string(src[:m.start]) + m.replacement + string(src[m.end:])
	if m.keep != "" {
		out += "\nvar _ = " + m.keep + " // kept in use by the mutant\n"
	}
	return out
}

// checkAlone type-checks m's package with m applied on its own.
func checkAlone(pkg *packages.Package, u universe, m *Mutant) error {
	abs := filepath.Join(filepath.Dir(pkg.CompiledGoFiles[0]), filepath.Base(m.File))
	src, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	return typecheck(pkg, u, map[string]string{abs: apply(src, m)})
}
