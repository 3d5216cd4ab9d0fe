// Package guarantees reads chapters/GUARANTEES.md, the guarantee matrix,
// and checks it against the tree: every cell names tests that exist, or
// says "n/a" and why; every mechanism package, and the runner, has a
// column; and the summary grid at the top says what the rows say.
//
// The matrix is written for people, as one section per guarantee (a row)
// with one bullet per package (a cell):
//
//	## decided-inside
//
//	- mailbox: `chapters/ch04_dead_letter:TestConcurrentFailureReportsStayWithinBudget`
//	- clock: n/a: the clock stores nothing a transaction could find changed.
//
// A test named in a cell is a package folder (relative to the module
// root), a colon and a top-level test function of that folder; a script
// is the path of its .txtar file.
package guarantees

import (
	"fmt"
	"regexp"
	"strings"
)

// Matrix is the guarantee matrix as GUARANTEES.md writes it.
type Matrix struct {
	Rows []Row
	// Grid is the summary table: its header's columns, and for each row
	// id the cells as written, by column.
	GridColumns []string
	Grid        map[string]map[string]string
	GridLine    map[string]int // the line of each row of the grid
}

// Row is one guarantee: its id (the section's title) and its cells.
type Row struct {
	ID    string
	Line  int
	Cells []Cell
}

// Cell is what one row says of one package: the tests that prove the
// guarantee there, or an excuse saying why it does not apply.
type Cell struct {
	Column string
	Line   int
	Refs   []Ref
	Excuse string // the reason after "n/a: "; "" when Refs are given
}

// Ref is one test a cell names: Dir and Test for a Go test, Script for a
// script file.
type Ref struct {
	Dir, Test string
	Script    string
}

func (r Ref) String() string {
	if r.Script != "" {
		return r.Script
	}
	return r.Dir + ":" + r.Test
}

var (
	rowTitle = regexp.MustCompile(`^## ([a-z0-9-]+)\s*$`)
	bullet   = regexp.MustCompile(`^- ([a-z0-9]+): (.*)$`)
	refText  = regexp.MustCompile("^`([^`]+)`$")
	testRef  = regexp.MustCompile(`^([a-z0-9_./-]+):(Test[A-Za-z0-9_]*)$`)
	gridRow  = regexp.MustCompile(`^\|.*\|\s*$`)
)

// Parse reads the matrix from text. It reports the first line it cannot
// read; whether what it says is true is Check's business.
func Parse(text string) (*Matrix, error) {
	m := &Matrix{Grid: map[string]map[string]string{}, GridLine: map[string]int{}}
	var row *Row
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if t := rowTitle.FindStringSubmatch(line); t != nil {
			m.Rows = append(m.Rows, Row{ID: t[1], Line: n})
			row = &m.Rows[len(m.Rows)-1]
			continue
		}
		if strings.HasPrefix(line, "## ") {
			return nil, fmt.Errorf("line %d: %q: a row's title is its id, lower-case words joined by hyphens", n, line)
		}
		if row == nil {
			if gridRow.MatchString(line) {
				if err := m.parseGridLine(n, line); err != nil {
					return nil, err
				}
			}
			continue
		}
		b := bullet.FindStringSubmatch(line)
		if b == nil {
			if strings.HasPrefix(line, "- ") {
				return nil, fmt.Errorf("line %d: %q: want `- PACKAGE: TESTS` or `- PACKAGE: n/a: REASON`", n, line)
			}
			continue
		}
		c, err := parseCell(b[1], b[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		c.Line = n
		row.Cells = append(row.Cells, c)
	}
	return m, nil
}

// parseCell reads what a bullet says of column.
func parseCell(column, text string) (Cell, error) {
	c := Cell{Column: column}
	if reason, ok := strings.CutPrefix(text, "n/a: "); ok {
		if strings.TrimSpace(reason) == "" {
			return c, fmt.Errorf("%s: n/a needs a reason", column)
		}
		c.Excuse = reason
		return c, nil
	}
	for part := range strings.SplitSeq(text, ", ") {
		q := refText.FindStringSubmatch(strings.TrimSpace(part))
		if q == nil {
			return c, fmt.Errorf("%s: %q: want tests in backquotes, separated by commas, or n/a: and a reason", column, part)
		}
		switch t := testRef.FindStringSubmatch(q[1]); {
		case t != nil:
			c.Refs = append(c.Refs, Ref{Dir: t[1], Test: t[2]})
		case strings.HasSuffix(q[1], ".txtar"):
			c.Refs = append(c.Refs, Ref{Script: q[1]})
		default:
			return c, fmt.Errorf("%s: %q: want FOLDER:TestName or a script's path", column, q[1])
		}
	}
	return c, nil
}

// parseGridLine reads one line of the summary table. The header names the
// columns; a separator line is skipped; every other line is a row.
func (m *Matrix) parseGridLine(n int, line string) error {
	var cells []string
	for c := range strings.SplitSeq(strings.Trim(strings.TrimSpace(line), "|"), "|") {
		cells = append(cells, strings.TrimSpace(c))
	}
	switch {
	case len(cells) > 0 && strings.Trim(cells[0], "-: ") == "":
		return nil // | --- | --- |
	case m.GridColumns == nil:
		m.GridColumns = cells[1:]
		return nil
	case len(cells) != len(m.GridColumns)+1:
		return fmt.Errorf("line %d: the grid's row has %d cells; its header has %d", n, len(cells), len(m.GridColumns)+1)
	}
	id := strings.Trim(cells[0], "[]")
	if i := strings.Index(id, "]("); i >= 0 {
		id = id[:i]
	}
	m.Grid[id] = map[string]string{}
	m.GridLine[id] = n
	for i, col := range m.GridColumns {
		m.Grid[id][col] = cells[i+1]
	}
	return nil
}
