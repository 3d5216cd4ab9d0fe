package exercise

// This file says which files of the repository an exercise touches: the
// ones starting it changes, and, for a test exercise, the learner file it
// creates. It is read from the exercise and the tree alone, never from
// the learner's state, so reset and start work even when that state is
// gone.

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
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
		return s.withheldFrom(e)
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

// withheldFrom returns the chapter test files that declare the tests e
// withholds. While e is started they are cut out of the tree, so the
// files come from e's record of its start or, without one, from the
// shipped list: the chapter's test files whose shipped bytes declare them.
func (s *Set) withheldFrom(e *Exercise) ([]string, error) {
	if w, ok, err := LoadWork(s.Root, e.Name); err == nil && ok {
		var files []string
		for _, ed := range w.Edits {
			if !ed.Created() {
				files = append(files, ed.File)
			}
		}
		return files, nil
	}
	cuts, err := withhold(s.Root, e.Chapter, e.Withhold)
	if err == nil {
		var files []string
		for _, c := range cuts {
			files = append(files, c.File)
		}
		return files, nil
	}
	if !errors.Is(err, ErrNoTest) {
		return nil, err
	}
	shipped, serr := LoadShipped(s.Root)
	if serr != nil {
		return nil, serr
	}
	var files []string
	for _, f := range shipped.files() {
		if path.Dir(f) != path.Join(weakening.ChaptersDir, e.Chapter) {
			continue
		}
		data, serr := shipped.Bytes(context.Background(), s.Root, s.Root, f)
		if serr != nil {
			return nil, serr
		}
		if _, ok, cerr := cutTests(f, data, e.Withhold); cerr == nil && ok {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, err
	}
	return files, nil
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
