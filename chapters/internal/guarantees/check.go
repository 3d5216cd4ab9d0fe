package guarantees

// This file holds Check: what the matrix says, held against the tree.

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Columns returns the columns the matrix must have in the module at root:
// every mechanism package (each folder under internal/ but the course
// tooling and the runner), then the runner.
func Columns(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "internal"))
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "course" && e.Name() != "runner" {
			cols = append(cols, e.Name())
		}
	}
	return append(cols, "runner"), nil
}

// Check holds m against the module at root, whose packages are columns,
// and returns one error per thing that is wrong, each naming its line.
func (m *Matrix) Check(root string, columns []string) []error {
	var errs []error
	if len(m.Rows) == 0 {
		errs = append(errs, errors.New("the matrix has no rows"))
	}
	tests := testIndex{root: root, funcs: map[string]map[string]bool{}}
	for _, r := range m.Rows {
		seen := map[string]bool{}
		for _, c := range r.Cells {
			switch {
			case !slices.Contains(columns, c.Column):
				errs = append(errs, fmt.Errorf("line %d: row %s has a cell for %q, which is not a mechanism package or the runner (columns: %s)",
					c.Line, r.ID, c.Column, strings.Join(columns, ", ")))
			case seen[c.Column]:
				errs = append(errs, fmt.Errorf("line %d: row %s has two cells for %s", c.Line, r.ID, c.Column))
			}
			seen[c.Column] = true
			for _, ref := range c.Refs {
				if err := tests.find(ref); err != nil {
					errs = append(errs, fmt.Errorf("line %d: row %s, column %s: %w", c.Line, r.ID, c.Column, err))
				}
			}
		}
		for _, col := range columns {
			if !seen[col] {
				errs = append(errs, fmt.Errorf("line %d: row %s has no cell for %s: name the test that proves it there, or say n/a and why",
					r.Line, r.ID, col))
			}
		}
	}
	return append(errs, m.checkGrid(columns)...)
}

// checkGrid compares the summary table with the rows: the same columns,
// one line per row, and in each cell the places the row's tests live
// (Place), or n/a.
func (m *Matrix) checkGrid(columns []string) []error {
	var errs []error
	if !slices.Equal(m.GridColumns, columns) {
		errs = append(errs, fmt.Errorf("the grid's columns are %v; want %v", m.GridColumns, columns))
	}
	for _, r := range m.Rows {
		whole := !slices.ContainsFunc(columns, func(col string) bool { _, ok := r.Cell(col); return !ok })
		got, ok := m.Grid[r.ID]
		if !ok && !whole {
			continue // Check reports each missing cell once; the grid line it wants follows when the row is whole
		}
		if !ok {
			errs = append(errs, fmt.Errorf("the grid has no line for row %s; want %s", r.ID, r.GridLine(columns)))
			continue
		}
		for _, col := range columns {
			c, ok := r.Cell(col)
			if !ok {
				continue // Check reports the missing cell
			}
			if want := c.Summary(); got[col] != want {
				errs = append(errs, fmt.Errorf("line %d: the grid says %q of %s for row %s; the row says %q; want the line %s",
					m.GridLine[r.ID], got[col], col, r.ID, want, r.GridLine(columns)))
			}
		}
	}
	for id, line := range m.GridLine {
		if !slices.ContainsFunc(m.Rows, func(r Row) bool { return r.ID == id }) {
			errs = append(errs, fmt.Errorf("line %d: the grid has a line for %s, which is no row", line, id))
		}
	}
	return errs
}

// Summary is what the grid says of c: "n/a", or where its tests live,
// each place once (Place), in order.
func (c Cell) Summary() string {
	if c.Excuse != "" {
		return "n/a"
	}
	var places []string
	for _, r := range c.Refs {
		if p := r.Place(); !slices.Contains(places, p) {
			places = append(places, p)
		}
	}
	sort.Strings(places)
	return strings.Join(places, " ")
}

// Place is where a test lives, shortly: the chapter's number (ch04) for a
// chapter's test or script, the folder's last element (cli) for another.
func (r Ref) Place() string {
	p := r.Dir
	if r.Script != "" {
		p = r.Script
	}
	if rest, ok := strings.CutPrefix(p, "chapters/"); ok {
		ch, _, _ := strings.Cut(rest, "/")
		ch, _, _ = strings.Cut(ch, "_")
		return ch
	}
	return filepath.Base(p)
}

// Cell returns r's cell for column, and false if r has none.
func (r Row) Cell(column string) (Cell, bool) {
	for _, c := range r.Cells {
		if c.Column == column {
			return c, true
		}
	}
	return Cell{}, false
}

// GridLine is r's line of the summary table, as Check wants it; "?" marks
// a cell the row does not have yet.
func (r Row) GridLine(columns []string) string {
	cells := []string{"[" + r.ID + "](#" + r.ID + ")"} // the grid links each row to its section
	for _, col := range columns {
		s := "?"
		if c, ok := r.Cell(col); ok {
			s = c.Summary()
		}
		cells = append(cells, s)
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

// testIndex finds test functions, parsing each folder's test files once.
type testIndex struct {
	root  string
	funcs map[string]map[string]bool // folder -> top-level functions of its _test.go files
}

// find reports why ref names nothing, or nil if it names a test.
func (x testIndex) find(ref Ref) error {
	if ref.Script != "" {
		if _, err := os.Stat(filepath.Join(x.root, filepath.FromSlash(ref.Script))); err != nil {
			return fmt.Errorf("script %s: %w", ref.Script, err)
		}
		return nil
	}
	funcs, ok := x.funcs[ref.Dir]
	if !ok {
		var err error
		if funcs, err = testFuncs(filepath.Join(x.root, filepath.FromSlash(ref.Dir))); err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		x.funcs[ref.Dir] = funcs
	}
	if !funcs[ref.Test] {
		return fmt.Errorf("%s: no test %s in %s", ref, ref.Test, ref.Dir)
	}
	return nil
}

// testFuncs returns the names of the top-level functions of the test
// files in dir.
func testFuncs(dir string) (map[string]bool, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no test files in %s", dir)
	}
	funcs := map[string]bool{}
	fset := token.NewFileSet()
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				funcs[fn.Name.Name] = true
			}
		}
	}
	return funcs, nil
}
