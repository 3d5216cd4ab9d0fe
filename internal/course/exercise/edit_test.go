package exercise

import (
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestEditTellsWhatBecameOfTheFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	path := filepath.Join(root, "a.go")
	assert.NilError(t, os.WriteFile(path, []byte("shipped"), 0o600))
	e := NewEdit("a.go", []byte("shipped"), true, []byte("broken"))
	assert.NilError(t, e.Write(root, []byte("broken")))
	info, err := os.Stat(path)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(info.Mode().Perm(), os.FileMode(0o600)), "an edit keeps the file's mode")

	state := func() FileState {
		s, _, err := e.State(root)
		assert.NilError(t, err)
		return s
	}
	assert.Check(t, cmp.Equal(state(), AsLeft))
	assert.NilError(t, os.WriteFile(path, []byte("the learner's"), 0o600))
	assert.Check(t, cmp.Equal(state(), Changed))
	assert.NilError(t, os.Remove(path))
	assert.Check(t, cmp.Equal(state(), Changed), "a file the learner deleted is changed")
	assert.NilError(t, e.Undo(root))
	assert.Check(t, cmp.Equal(state(), Undone))
	data, err := os.ReadFile(path)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(string(data), "shipped"))

	created := NewEdit("b_test.go", nil, false, []byte("skeleton"))
	assert.NilError(t, created.Write(root, []byte("skeleton")))
	assert.Check(t, created.Created())
	assert.NilError(t, created.Undo(root))
	_, err = os.Stat(filepath.Join(root, "b_test.go"))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "undoing a created file removes it")
	s, _, err := created.State(root)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(s, Undone))
}

func TestStateFilesLiveUnderTheStateDirAndLeaveNoEmptyFolder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := &Progress{Current: "fix-x", Exercises: map[string]*Record{"fix-x": {Hints: 2}}}
	assert.NilError(t, p.Save(root))
	got, err := LoadProgress(root)
	assert.NilError(t, err)
	assert.DeepEqual(t, got, p)

	w := &Work{Exercise: "fix-x"}
	assert.NilError(t, w.save(root))
	_, ok, err := LoadWork(root, "fix-x")
	assert.Check(t, ok && err == nil)
	assert.NilError(t, w.forget(root))
	assert.NilError(t, RemoveState(root, "progress.json"))
	_, err = os.Stat(filepath.Join(root, StateDir))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "removing the last state file removes %s", StateDir)
}

func TestSectionLinesSkipsHeadingsInsideCodeFences(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	readme := "# Title\n\n## The fence\n\nText.\n\n```sh\n# not a heading\n```\n\n### Detail\n\nMore.\n\n## Next\n"
	assert.NilError(t, os.WriteFile(filepath.Join(root, "README.md"), []byte(readme), 0o644))
	first, last, err := sectionLines(root, "README.md", "The fence")
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(first, 3))
	assert.Check(t, cmp.Equal(last, 13), "a section runs to the next heading of its level, blank lines trimmed")
	_, _, err = sectionLines(root, "README.md", "No such")
	assert.Check(t, cmp.ErrorContains(err, `has no section "No such"`))
}

func TestNextIsTheFollowingExerciseNotDone(t *testing.T) {
	t.Parallel()
	a, b, c := &Exercise{Name: "fix-a"}, &Exercise{Name: "test-b"}, &Exercise{Name: "build-c"}
	set := &Set{Exercises: []*Exercise{a, b, c}}
	status := map[string]Status{"test-b": Done}
	next, ok := Next(set, status, a)
	assert.Check(t, ok && next == c, "after fix-a, with test-b done: %v", next)
	next, ok = Next(set, status, c)
	assert.Check(t, ok && next == a, "the order wraps around: %v", next)
	status["fix-a"], status["build-c"] = Done, Done
	_, ok = Next(set, status, c)
	assert.Check(t, !ok, "nothing is next once every exercise is done")
}

func TestScoreIsCaughtOverChaffs(t *testing.T) {
	t.Parallel()
	assert.Check(t, cmp.Equal(Score{Caught: 2, Chaffs: 3}.Percent(), 66))
	assert.Check(t, !Score{Caught: 2, Chaffs: 3}.Full())
	assert.Check(t, Score{Caught: 3, Chaffs: 3}.Full())
	assert.Check(t, !Score{}.Full(), "no chaffs is no proof")
}
