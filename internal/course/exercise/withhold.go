package exercise

// This file withholds a test exercise's tests from their chapter: it cuts
// the test functions out of the chapter's test files while the learner
// writes their own, and can put the cut functions into a file of their
// own, the reference solution the course's proof grades.

import (
	"errors"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// ErrNoTest is returned (wrapped) when no test file of the chapter declares
// a test an exercise withholds.
var ErrNoTest = errors.New("exercise: chapter has no such test")

// cut is one chapter test file with some tests cut out.
type cut struct {
	File    string   // relative to the module root, slash-separated
	Before  []byte   // as shipped
	After   []byte   // without the tests
	Funcs   []string // the source of each cut function, doc comment included
	Imports []string // the source of every import spec of the file
	Package string   // the file's package name
}

// withhold finds the chapter's test files declaring the tests names and
// returns them with those tests cut out, in file-name order.
func withhold(root, chapter string, names []string) ([]cut, error) {
	dir := filepath.Join(root, "chapters", chapter)
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	found := map[string]bool{}
	var cuts []cut
	for _, abs := range files {
		if isLearnerFile(filepath.Base(abs)) {
			continue
		}
		src, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("withhold: %w", err)
		}
		rel := "chapters/" + chapter + "/" + filepath.Base(abs)
		c, ok, err := cutTests(rel, src, names)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		for _, n := range names {
			if slices.ContainsFunc(c.Funcs, func(s string) bool { return strings.Contains(s, "func "+n+"(") }) {
				found[n] = true
			}
		}
		cuts = append(cuts, c)
	}
	for _, n := range names {
		if !found[n] {
			return nil, fmt.Errorf("withhold %s from chapters/%s: %w", n, chapter, ErrNoTest)
		}
	}
	return cuts, nil
}

// cutTests cuts the top-level functions names declares from src; ok is
// false if src declares none of them.
func cutTests(rel string, src []byte, names []string) (cut, bool, error) {
	fset, f, err := parseGo(rel, src)
	if err != nil {
		return cut{}, false, fmt.Errorf("withhold: %w", err)
	}
	c := cut{File: rel, Before: src, Package: f.Name.Name}
	type span struct{ start, end int }
	var spans []span
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !slices.Contains(names, fd.Name.Name) {
			continue
		}
		start, end := declRange(fset, src, fd)
		spans = append(spans, span{start, end})
		c.Funcs = append(c.Funcs, strings.TrimRight(string(src[start:end]), "\n"))
	}
	if len(spans) == 0 {
		return cut{}, false, nil
	}
	for _, imp := range f.Imports {
		start := fset.Position(imp.Pos()).Offset
		if imp.Name != nil {
			start = fset.Position(imp.Name.Pos()).Offset
		}
		c.Imports = append(c.Imports, string(src[start:fset.Position(imp.End()).Offset]))
	}
	out := append([]byte(nil), src...)
	for i := len(spans) - 1; i >= 0; i-- {
		out = append(out[:spans[i].start], out[spans[i].end:]...)
	}
	after, err := pruneImports(out)
	if err != nil {
		return cut{}, false, fmt.Errorf("withhold from %s: %w", rel, err)
	}
	c.After = after
	return c, true, nil
}

// Reference returns the reference solution of test exercise e, read from
// its chapter under root: a learner test file holding the withheld tests
// as the chapter wrote them, each renamed by ReferenceName (the chapter's
// own come back once the exercise is done, and two tests cannot share a
// name).
func (e *Exercise) Reference(root string) ([]byte, error) {
	if e.Kind != Test {
		return nil, fmt.Errorf("reference: %s is a %s exercise, not a test exercise", e.Name, e.Kind)
	}
	cuts, err := withhold(root, e.Chapter, e.Withhold)
	if err != nil {
		return nil, err
	}
	return referenceFile(cuts)
}

// referenceFile returns a learner test file holding the tests cut out.
func referenceFile(cuts []cut) ([]byte, error) {
	if len(cuts) == 0 {
		return nil, errors.New("reference: no tests withheld")
	}
	var b strings.Builder
	// The standard library's imports first, then a blank line and the
	// rest, the way goimports groups them.
	var std, other []string
	for _, c := range cuts {
		for _, imp := range c.Imports {
			p := imp[strings.Index(imp, `"`)+1:]
			group := &other
			if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") {
				group = &std
			}
			if !slices.Contains(*group, imp) {
				*group = append(*group, imp)
			}
		}
	}
	fmt.Fprintf(&b, "package %s\n\nimport (\n", cuts[0].Package)
	for _, imp := range std {
		fmt.Fprintf(&b, "\t%s\n", imp)
	}
	b.WriteString("\n")
	for _, imp := range other {
		fmt.Fprintf(&b, "\t%s\n", imp)
	}
	b.WriteString(")\n")
	for _, c := range cuts {
		for _, fn := range c.Funcs {
			fmt.Fprintf(&b, "\n%s\n", renameTests(fn))
		}
	}
	return pruneImports([]byte(b.String()))
}

// testWord matches a test's name as a word.
var testWord = regexp.MustCompile(`\bTest[A-Za-z0-9_]*\b`)

// renameTests renames the test a function's source declares (and names in
// its doc comment) by ReferenceName.
func renameTests(fn string) string {
	_, f, err := parseGo("x_test.go", []byte("package x\n"+fn))
	if err != nil || len(f.Decls) == 0 {
		return fn
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok {
		return fn
	}
	name := fd.Name.Name
	return testWord.ReplaceAllStringFunc(fn, func(w string) string {
		if w == name {
			return ReferenceName(name)
		}
		return w
	})
}

// ReferenceName is the name a learner test takes for the chapter's test
// name: TestLearnerX for TestX.
func ReferenceName(name string) string { return "TestLearner" + strings.TrimPrefix(name, "Test") }
