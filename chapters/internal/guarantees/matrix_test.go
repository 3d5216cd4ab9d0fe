package guarantees

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// moduleRoot returns the folder of the go.mod above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	assert.NilError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above this test")
		}
		dir = parent
	}
}

// readMatrix parses chapters/GUARANTEES.md of this module.
func readMatrix(t *testing.T) (*Matrix, string) {
	t.Helper()
	root := moduleRoot(t)
	text, err := os.ReadFile(filepath.Join(root, "chapters", "GUARANTEES.md"))
	assert.NilError(t, err)
	m, err := Parse(string(text))
	assert.NilError(t, err, "chapters/GUARANTEES.md")
	return m, root
}

// TestEveryCellNamesATestThatExists: every cell of the matrix names tests
// that exist in the folders it says, or says n/a and why; every mechanism
// package and the runner has a cell in every row; and the grid at the top
// says what the rows say. A renamed or deleted test fails here, naming
// the line of the matrix that still names it.
func TestEveryCellNamesATestThatExists(t *testing.T) {
	t.Parallel()
	m, root := readMatrix(t)
	cols, err := Columns(root)
	assert.NilError(t, err)

	for _, err := range m.Check(root, cols) {
		t.Errorf("chapters/GUARANTEES.md: %v", err)
	}
}

// TestEveryMechanismPackageHasAColumn: a package added under internal/
// (anything but the course tooling and the runner) is a mechanism, and
// the matrix must say, guarantee by guarantee, where that package proves
// it or why it does not apply. Its column is missing until the grid and
// every row have it.
func TestEveryMechanismPackageHasAColumn(t *testing.T) {
	t.Parallel()
	m, root := readMatrix(t)
	cols, err := Columns(root)
	assert.NilError(t, err)
	assert.Assert(t, len(cols) > 1, "no mechanism package found under %s/internal", root)

	for _, col := range cols {
		assert.Check(t, cmp.Contains(m.GridColumns, col), "chapters/GUARANTEES.md: the grid has no column for %s", col)
		for _, r := range m.Rows {
			has := false
			for _, c := range r.Cells {
				has = has || c.Column == col
			}
			assert.Check(t, has, "chapters/GUARANTEES.md: row %s (line %d) has no cell for %s", r.ID, r.Line, col)
		}
	}
}

// TestABadMatrixFailsNamingEachBadCell: the check itself, on a small tree
// and a matrix with one thing wrong of each kind: a cell naming a test
// that does not exist, a package with no cell, a cell for a package that
// is not one, and a grid that says a test where the row says n/a. Each is reported with its
// line; the good cells are not.
func TestABadMatrixFailsNamingEachBadCell(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, dir := range []string{"internal/alpha", "internal/beta", "internal/course", "internal/runner", "chapters/ch01_first"} {
		assert.NilError(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
	}
	assert.NilError(t, os.WriteFile(filepath.Join(root, "chapters/ch01_first/a_test.go"),
		[]byte("package first\n\nimport \"testing\"\n\nfunc TestReal(t *testing.T) {}\n"), 0o644))
	m, err := Parse(strings.Join([]string{
		"| guarantee | alpha | beta | runner |",
		"| --- | --- | --- | --- |",
		"| kept | ch01 | n/a | ch01 |",
		"",
		"## kept",
		"",
		"- alpha: `chapters/ch01_first:TestReal`, `chapters/ch01_first:TestGone`",
		"- gamma: n/a: not a package",
		"- runner: n/a: the runner keeps nothing",
	}, "\n"))
	assert.NilError(t, err)
	cols, err := Columns(root)
	assert.NilError(t, err)
	assert.DeepEqual(t, cols, []string{"alpha", "beta", "runner"})

	var got []string
	for _, err := range m.Check(root, cols) {
		got = append(got, err.Error())
	}

	want := []string{
		"line 7: row kept, column alpha: chapters/ch01_first:TestGone: no test TestGone in chapters/ch01_first",
		`line 8: row kept has a cell for "gamma"`,
		"line 5: row kept has no cell for beta",
		`line 3: the grid says "ch01" of runner for row kept; the row says "n/a"`,
	}
	assert.Equal(t, len(got), len(want), "the check of a matrix with %d things wrong reported: %q", len(want), got)
	for i := range want {
		assert.Check(t, i < len(got) && strings.HasPrefix(got[i], want[i]), "problem %d = %q; want it to start %q", i, got, want[i])
	}
}

// TestParseRefusesACellItCannotRead: a cell is tests in backquotes or
// n/a with a reason; anything else is an error naming its line, not a
// cell silently read as empty.
func TestParseRefusesACellItCannotRead(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"- alpha: TestNoQuotes",
		"- alpha: n/a:",
		"- alpha: `chapters/ch01_first`",
		"- Alpha: `chapters/ch01_first:TestReal`",
	} {
		_, err := Parse("## kept\n\n" + line + "\n")
		assert.Check(t, err != nil && strings.HasPrefix(err.Error(), "line 3:"), "Parse(%q) = %v; want an error at line 3", line, err)
	}
	_, err := Parse("## Not An Id\n")
	assert.Check(t, err != nil, "Parse of a row titled with spaces and capitals: want an error")
	assert.Check(t, !errors.Is(err, os.ErrNotExist))
}

// TestAMissingCellIsReportedOnceAndAGridLineInItsLinkedForm: a new row
// without a cell is told about the cell, once; once whole, it is told the
// grid line it wants, linked to its section as every line of the grid is.
func TestAMissingCellIsReportedOnceAndAGridLineInItsLinkedForm(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, dir := range []string{"internal/alpha", "internal/runner", "chapters/ch01_first"} {
		assert.NilError(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
	}
	assert.NilError(t, os.WriteFile(filepath.Join(root, "chapters/ch01_first/a_test.go"),
		[]byte("package first\n\nimport \"testing\"\n\nfunc TestReal(t *testing.T) {}\n"), 0o644))
	cols := []string{"alpha", "runner"}
	check := func(section ...string) []string {
		m, err := Parse(strings.Join(append([]string{"| guarantee | alpha | runner |", "| --- | --- | --- |", "", "## fresh", ""}, section...), "\n"))
		assert.NilError(t, err)
		var got []string
		for _, err := range m.Check(root, cols) {
			got = append(got, err.Error())
		}
		return got
	}

	got := check("- alpha: `chapters/ch01_first:TestReal`")
	assert.Assert(t, cmp.Len(got, 1), "a row missing one cell and its grid line: %q", got)
	assert.Check(t, cmp.Contains(got[0], "row fresh has no cell for runner"))

	got = check("- alpha: `chapters/ch01_first:TestReal`", "- runner: n/a: keeps nothing")
	assert.Assert(t, cmp.Len(got, 1), "a whole row without its grid line: %q", got)
	assert.Check(t, cmp.Contains(got[0], "want | [fresh](#fresh) | ch01 | n/a |"), got[0])
}
