package drill

// The checker is graded on the fixture module in testdata/drill at the top
// of the repository: one weakening per verdict and reason.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/fs"
)

// fixtureRoot is the fixture module's root.
func fixtureRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "drill"))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// fixtureTimeout is the -timeout of the fixture's go test runs: long enough
// for its tests (they take milliseconds), short enough that never-settles
// times out quickly.
const fixtureTimeout = 3 * time.Second

// slow skips t under -short: it runs the go command on the fixture.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go test on the fixture module; skipped with -short")
	}
}

// runTool runs drill with args against root and returns the exit status,
// stdout and stderr.
func runTool(t testing.TB, root string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	tool := &Tool{Root: root, Stdout: &stdout, Stderr: &stderr, Timeout: fixtureTimeout}
	code := tool.Run(t.Context(), args)
	return code, stdout.String(), stderr.String()
}

// snapshot records the tree under root as it is now, every file's bytes
// and mode and every folder's mode, for one later fs.Equal. (A manifest
// from fs.ManifestFromDir keeps each file open and reads it only when it
// is compared, so it would compare the tree with itself.)
func snapshot(t testing.TB, root string) fs.Manifest {
	t.Helper()
	info, err := os.Stat(root)
	if err != nil {
		t.Fatal(err)
	}
	return fs.Expected(t, append(snapshotOps(t, root), fs.WithMode(info.Mode()))...)
}

// snapshotOps returns the fs.PathOps that recreate what dir holds.
func snapshotOps(t testing.TB, dir string) []fs.PathOp {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ops []fs.PathOp
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if e.IsDir() {
			ops = append(ops, fs.WithDir(e.Name(), append(snapshotOps(t, path), fs.WithMode(info.Mode()))...))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, fs.WithFile(e.Name(), string(data), fs.WithMode(info.Mode())))
	}
	return ops
}

// copyFixture copies the fixture module into a fresh temporary directory
// and returns its root, for tests that write to the working tree.
func copyFixture(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(fixtureRoot(t))); err != nil {
		t.Fatalf("copy the fixture module: %v", err)
	}
	return dst
}

// committedFixture is copyFixture made a git checkout with every file
// committed: a tree drill apply is willing to edit.
func committedFixture(t testing.TB) string {
	t.Helper()
	needGit(t)
	root := copyFixture(t)
	git(t, root, "init", "-q", ".")
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "the fixture, committed")
	return root
}

// needGit skips t where git is not installed: drill apply refuses to edit
// anything without it.
func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed, and drill apply needs it")
	}
}

// git runs git with args in dir, away from the user's and the system's git
// configuration, and fails the test if git fails.
func git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=drill test", "-c", "user.email=drill@example.invalid",
		"-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
