package mutate

// The key of a verdict (key.go): what makes it hold, and what does not.

import (
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// TestAPackageJudgedByItsOwnTestsKeysOnlyItsTests: the key of a mutant of
// a package its own tests judge holds while another function of the
// package changes (the mutated function's source is in the key already),
// and changes with the package's tests; so an edit to one function
// re-judges that function's mutants, not all of the package's.
func TestAPackageJudgedByItsOwnTestsKeysOnlyItsTests(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		assert.NilError(t, variant.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(text)))
	}
	write("go.mod", "module example.com/own\n\ngo 1.26\n")
	write("internal/tool/a.go", "package tool\n\n// A is one.\nfunc A() int { return 1 }\n")
	write("internal/tool/b.go", "package tool\n\n// B is two.\nfunc B() int { return 2 }\n")
	write("internal/tool/tool_test.go", "package tool\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n")
	tree := Tree{{Dir: "internal/tool", Layer: Tooling, Exits: []string{"A"}}}
	m := &Mutant{ID: "tool:A:int-const:00000000", Package: "internal/tool", original: "1", replacement: "2", declSum: "a"}
	keyNow := func() string {
		t.Helper()
		r := &variant.Runner{Root: root, Jobs: 1}
		defer r.Close()
		l, err := listPackages(t.Context(), r, "example.com/own", tree)
		assert.NilError(t, err)
		judges, err := l.judges()
		assert.NilError(t, err)
		assert.Equal(t, len(judges), 1, "the package's own tests are its one judge")
		assert.NilError(t, l.testSides(judges))
		return key(m, judges, Excuse{}, "sum")
	}

	first := keyNow()
	write("internal/tool/b.go", "package tool\n\n// B is three now.\nfunc B() int { return 3 }\n")
	assert.Equal(t, keyNow(), first, "a change to another function of the package changed the key of A's mutant")
	write("internal/tool/tool_test.go", strings.Replace("package tool\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n", `"A"`, `"A is not one"`, 1))
	assert.Assert(t, keyNow() != first, "a change to the package's tests left the key of A's mutant as it was")
}
