package companion

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

// TestFencelabBinaryCarriesNoEtcd: the fencelab binary's build reaches no
// etcd package, so that a learner's first command does not compile it;
// the companion's does.
func TestFencelabBinaryCarriesNoEtcd(t *testing.T) {
	root, err := moduleRoot(t.Context())
	assert.NilError(t, err, "the test runs inside the module's source")
	deps := func(pkg string) string {
		cmd := exec.CommandContext(t.Context(), "go", "list", "-deps", pkg)
		cmd.Dir = root
		out, err := cmd.Output()
		assert.NilError(t, err, "go list -deps %s", pkg)
		return string(out)
	}
	assert.Check(t, !strings.Contains(deps("./tools/fencelab"), "go.etcd.io/"), "the fencelab binary's build includes etcd")
	assert.Check(t, strings.Contains(deps(Package), "go.etcd.io/etcd/server/v3/embed"), "the companion's build lacks etcd's server")
}

// TestModuleRootIsTheRepository: the companion is built from the module
// this package was compiled from.
func TestModuleRootIsTheRepository(t *testing.T) {
	root, err := moduleRoot(t.Context())
	assert.NilError(t, err)
	assert.Check(t, isModule(filepath.Join(root, "go.mod")), "%s holds no go.mod of %s", root, Module)
	assert.Check(t, !isModule(filepath.Join(root, "README.md")), "a file that declares no module was taken for go.mod")
}
