package drill

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// target is the file the fixture's weakenings edit.
const target = "internal/counter/counter.go"

func readTarget(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
	assert.NilError(t, err)
	return string(data)
}

func TestApplyThenRestoreLeavesTheTreeByteIdentical(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	before := snapshot(t, root)
	original := readTarget(t, root)

	code, stdout, stderr := runTool(t, root, "apply", "ceiling-off-by-one")
	assert.Assert(t, cmp.Equal(code, 0), "apply: %s", stderr)
	assert.Check(t, cmp.Contains(stdout, "applied ceiling-off-by-one to internal/counter/counter.go"))
	weakened := readTarget(t, root)
	assert.Check(t, cmp.Contains(weakened, "\tif c.n > c.ceiling {\n"), "apply must make the edit in the working tree")
	assert.Check(t, cmp.Equal(len(weakened), len(original)-1), "apply must change only the edited text")

	code, stdout, stderr = runTool(t, root, "restore")
	assert.Assert(t, cmp.Equal(code, 0), "restore: %s", stderr)
	assert.Check(t, cmp.Equal(stdout, "restored internal/counter/counter.go (undid ceiling-off-by-one)\n"))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), before), "apply then restore must leave the tree byte-identical, with no state file left")
	_, err := os.Stat(filepath.Join(root, StateDir))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "restore must remove its empty %s folder: %v", StateDir, err)
}

func TestRestoreWithNothingAppliedChangesNothing(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	before := snapshot(t, root)
	code, stdout, _ := runTool(t, root, "restore")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Equal(stdout, "nothing to restore: drill apply has not changed any file\n"))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), before), "restore with nothing applied must change nothing")
}

func TestRestoreRefusesToLoseEditsMadeAfterApply(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	code, _, stderr := runTool(t, root, "apply", "ceiling-off-by-one")
	assert.Assert(t, cmp.Equal(code, 0), "apply: %s", stderr)
	mine := readTarget(t, root) + "\n// the learner's own note\n"
	assert.NilError(t, os.WriteFile(filepath.Join(root, target), []byte(mine), 0o644))

	code, _, stderr = runTool(t, root, "restore")
	assert.Check(t, cmp.Equal(code, 1), "restore over the learner's edits must refuse")
	assert.Check(t, cmp.Contains(stderr, "internal/counter/counter.go is not as 'drill apply ceiling-off-by-one' left it"))
	assert.Check(t, cmp.Equal(readTarget(t, root), mine), "a refused restore must leave the learner's file alone")
	_, ok, err := readApplied(root)
	assert.NilError(t, err)
	assert.Check(t, ok, "a refused restore must keep the record, so a later restore can still undo the apply")
}

func TestRestoreForgetsAnApplyUndoneByHand(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	before := snapshot(t, root)
	original := readTarget(t, root)
	code, _, _ := runTool(t, root, "apply", "ceiling-off-by-one")
	assert.Assert(t, cmp.Equal(code, 0))
	assert.NilError(t, os.WriteFile(filepath.Join(root, target), []byte(original), 0o644))

	code, stdout, _ := runTool(t, root, "restore")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Contains(stdout, "already holds its original content"))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), before), "restore after the apply was undone by hand must leave the tree as it was")
}

func TestApplyRefusesASecondWeakening(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	code, _, _ := runTool(t, root, "apply", "ceiling-off-by-one")
	assert.Assert(t, cmp.Equal(code, 0))
	weakened := readTarget(t, root)

	code, _, stderr := runTool(t, root, "apply", "label-changes")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stderr, "ceiling-off-by-one is already applied to internal/counter/counter.go"))
	assert.Check(t, cmp.Equal(readTarget(t, root), weakened), "a refused apply must not touch the file")
}

func TestApplyRefusesAStaleWeakening(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	before := snapshot(t, root)
	code, _, stderr := runTool(t, root, "apply", "stale-before")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Equal(stderr, "drill apply: stale-before no longer applies: before-text not found in internal/counter/counter.go (edit 1)\n"))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), before), "a refused apply must leave the tree as it was")
}

func TestApplyRefusesAFileWithUncommittedChanges(t *testing.T) {
	t.Parallel()
	needGit(t)
	root := copyFixture(t)
	// A fresh repository with nothing committed: every file is untracked,
	// which is an uncommitted change as far as restore's safety goes.
	git(t, root, "init", "-q", ".")
	original := readTarget(t, root)

	tool := &Tool{Root: root, Stdout: io.Discard, Stderr: io.Discard}
	err := tool.apply(t.Context(), []string{"ceiling-off-by-one"})
	assert.Check(t, cmp.ErrorIs(err, ErrUncommitted), "apply over an untracked file = %v; want ErrUncommitted", err)
	assert.Check(t, cmp.Equal(readTarget(t, root), original), "a refused apply must not touch the file")
	_, ok, _ := readApplied(root)
	assert.Check(t, !ok, "a refused apply must not record anything")
}

// TestApplyRefusesOutsideAGitCheckout: where git cannot say what is
// uncommitted (here: the tree is no git checkout), apply does not guess.
// It refuses in one line that says the guard needs git and what git said,
// and points to try, which needs no git; nothing in the tree changes.
func TestApplyRefusesOutsideAGitCheckout(t *testing.T) {
	t.Parallel()
	needGit(t)
	root := copyFixture(t)
	before := snapshot(t, root)

	code, stdout, stderr := runTool(t, root, "apply", "ceiling-off-by-one")

	assert.Check(t, cmp.Equal(code, 1), "drill apply outside a git checkout: exit status")
	assert.Check(t, cmp.Equal(stdout, ""), "a refused apply prints nothing on stdout")
	assert.Check(t, cmp.Regexp(`^drill apply: the uncommitted-changes guard needs git, and git status failed: fatal: not a git repository[^\n]*; 'go run ./tools/drill try ceiling-off-by-one' needs no git and never writes your files\n$`, stderr),
		"drill apply outside a git checkout must refuse in one line saying why")
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), before), "a refused apply must leave the tree as it was")

	err := (&Tool{Root: root, Stdout: io.Discard, Stderr: io.Discard}).apply(t.Context(), []string{"ceiling-off-by-one"})
	assert.Check(t, cmp.ErrorIs(err, ErrNoGit), "apply outside a git checkout = %v; want ErrNoGit", err)
}

func TestCheckRefusesWhileAWeakeningIsApplied(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	code, _, _ := runTool(t, root, "apply", "ceiling-off-by-one")
	assert.Assert(t, cmp.Equal(code, 0))
	code, stdout, stderr := runTool(t, root, "check")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Equal(stdout, ""))
	assert.Check(t, cmp.Contains(stderr, "ceiling-off-by-one is applied to internal/counter/counter.go in the working tree"))
}
