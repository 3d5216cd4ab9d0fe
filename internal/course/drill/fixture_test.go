package drill

// The checker is graded on the fixture module in testdata/drill at the top
// of the repository: one weakening per verdict and reason.

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fencelab/fencelab/internal/course/exercise"
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

// snapshot records the tree under root as it is now: every file's mode
// and digest, and every folder's mode, by path, .git aside (git's own
// bookkeeping, which drill's skip-worktree marks touch). Compare two with
// assert.DeepEqual: a difference names the path.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel+"/"] = info.Mode().String()
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = info.Mode().String() + " " + exercise.Digest(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
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
