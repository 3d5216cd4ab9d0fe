package drill

import (
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestFindRootReadsTheModuleLineAsTheGoCommandDoes: drill finds the course
// from any folder below it by the module its go.mod declares, written in
// any form the go command accepts, and nothing else passes for it.
func TestFindRootReadsTheModuleLineAsTheGoCommandDoes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		gomod string
		found bool
	}{
		{"plain", "module github.com/fencelab/fencelab\n\ngo 1.26.0\n", true},
		{"quoted-with-comment", "module \"github.com/fencelab/fencelab\" // the course\n", true},
		{"after-a-comment", "// module example.com/other\nmodule github.com/fencelab/fencelab\n", true},
		{"another-module", "module github.com/fencelab/fencelab-fork\n", false},
		{"commented-out", "// module github.com/fencelab/fencelab\nmodule example.com/other\n", false},
		{"no-module-line", "go 1.26.0\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			assert.NilError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte(tc.gomod), 0o644))
			below := filepath.Join(root, "chapters", "ch01")
			assert.NilError(t, os.MkdirAll(below, 0o755))
			want, err := filepath.EvalSymlinks(root)
			assert.NilError(t, err)

			got, err := FindRoot(below)

			if tc.found {
				assert.Check(t, cmp.Nil(err), "FindRoot below a go.mod that says %q", tc.gomod)
				assert.Check(t, cmp.Equal(got, want), "FindRoot below a go.mod that says %q", tc.gomod)
			} else {
				// Compared with the folder rather than ErrNoRoot: a TMPDIR inside
				// a checkout of the course would rightly find that checkout.
				assert.Check(t, got != want, "FindRoot took a go.mod that says %q for the course's (error %v)", tc.gomod, err)
			}
		})
	}
}
