package exercise

// This file says which files of the repository an exercise touches: the
// ones starting it changes, and, for a test exercise, the learner file it
// creates. It is read from the exercise and the tree alone, never from
// the learner's state, so reset and start work even when that state is
// gone.

import (
	"fmt"
	"go/ast"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Files returns the repository paths e touches, sorted: the mechanism
// file holding a fix's fault or a build's function, or the chapter test
// files a test exercise withholds tests from and its learner file.
func (s *Set) Files(e *Exercise) ([]string, error) {
	files, err := s.ShippedFiles(e)
	if err != nil {
		return nil, err
	}
	if e.Kind == Test {
		files = append(files, e.LearnerFile())
		sort.Strings(files)
	}
	return files, nil
}

// ShippedFiles returns the files of Files that the course ships: every
// one but a test exercise's learner file, which the learner writes.
func (s *Set) ShippedFiles(e *Exercise) ([]string, error) {
	switch e.Kind {
	case Build:
		return []string{e.File}, nil
	case Test:
		cuts, err := withhold(s.Root, e.Chapter, e.Withhold)
		if err != nil {
			return nil, err
		}
		var files []string
		for _, c := range cuts {
			files = append(files, c.File)
		}
		return files, nil
	}
	if !IsMutant(e.Fault) {
		w, ok := s.Catalog.Lookup(e.Fault)
		if !ok {
			return nil, fmt.Errorf("%s: fault %s: %w", e.Path, e.Fault, ErrUnknownWeakening)
		}
		return []string{w.File}, nil
	}
	file, err := mutantFile(s.Root, e.Fault)
	if err != nil {
		return nil, err
	}
	return []string{file}, nil
}

// mutantFile returns the file that declares the function (or the
// package-level name) a mutant ID names, without generating mutants.
func mutantFile(root, id string) (string, error) {
	dir, err := mutantPackage(root, id)
	if err != nil {
		return "", err
	}
	_, rest, _ := strings.Cut(id, ":")
	name, _, _ := strings.Cut(rest, ":")
	paths, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("mutant %s: %w", id, err)
		}
		rel := path.Join(dir, filepath.Base(p))
		_, f, err := parseGo(rel, src)
		if err != nil {
			return "", fmt.Errorf("mutant %s: %w", id, err)
		}
		if _, ok := findFunc(f, name); ok || declares(f, name) {
			return rel, nil
		}
	}
	return "", fmt.Errorf("mutant %s: %w (%s declares no %s)", id, ErrUnknownMutant, dir, name)
}

// declares reports whether f declares name at package level outside a
// function (a constant or a variable).
func declares(f *ast.File, name string) bool {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range g.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok && slices.ContainsFunc(vs.Names, func(n *ast.Ident) bool { return n.Name == name }) {
				return true
			}
		}
	}
	return false
}
