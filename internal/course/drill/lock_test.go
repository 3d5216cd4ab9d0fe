package drill

// One drill at a time on a tree: a command that changes it holds a lock
// in drill's state folder, a second one is refused naming the holder, and
// a lock whose holder is gone is taken over.

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

func TestASecondDrillIsRefusedNamingTheHolder(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	unlock, err := exercise.Lock(root, "verify")
	assert.NilError(t, err)
	code, _, errOut := runTool(t, root, "start", "fix-ceiling")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(errOut, fmt.Sprintf("another drill command is working on this tree (pid %d, drill verify, since ", os.Getpid())), errOut)
	assert.Check(t, cmp.Equal(readFile(t, root, counterFile), readFile(t, fixtureRoot(t), counterFile)), "a refused start changes nothing")

	code, _, _ = runTool(t, root, "exercises")
	assert.Check(t, cmp.Equal(code, 0), "a command that only reads needs no lock")

	unlock()
	code, _, errOut = runTool(t, root, "start", "fix-ceiling")
	assert.Check(t, cmp.Equal(code, 0), "once the holder is done, start runs: %s", errOut)
}

func TestALockWhoseHolderDiedIsTakenOver(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	writeNew(t, root, filepath.Join(exercise.StateDir, "lock"), "2147483646\nverify\n2026-01-01T00:00:00Z\n")
	code, _, errOut := runTool(t, root, "start", "fix-ceiling")
	assert.Check(t, cmp.Equal(code, 0), "a dead holder's lock is taken over: %s", errOut)
	_, err := os.Stat(filepath.Join(root, exercise.StateDir, "lock"))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "the lock is gone once the command is done")
}

func TestTwoStartsAtOnceStartOneExercise(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	names := []string{"fix-ceiling", "build-add"}
	codes := make([]int, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() { codes[i], _, _ = runTool(t, root, "start", n) })
	}
	wg.Wait()
	started := 0
	for _, c := range codes {
		if c == 0 {
			started++
		}
	}
	assert.Check(t, cmp.Equal(started, 1), "two starts of different exercises at once: exit statuses %v; want exactly one started", codes)
}

func TestMutateRefusesWhileAnExerciseIsStarted(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	code, _, errOut := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), errOut)
	code, _, errOut = runTool(t, root, "mutate")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(errOut, "exercise fix-ceiling is started"), "mutate must not judge a tree that is red on purpose: %s", errOut)
}

func TestALostStateFolderNamesTheStartedExerciseAndTheWayBack(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	code, _, errOut := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), errOut)
	assert.NilError(t, os.RemoveAll(filepath.Join(root, exercise.StateDir)))

	want := "internal/counter/counter.go differs from the shipped code with no record of a start"
	code, _, errOut = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(errOut, want), "verify with drill's state lost names the exercise: %s", errOut)
	assert.Check(t, cmp.Contains(errOut, "go run ./tools/drill reset fix-ceiling"), "and the one command that recovers: %s", errOut)

	code, out, _ := runTool(t, root, "exercises")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Contains(out, "go run ./tools/drill reset fix-ceiling"), out)

	code, _, errOut = runTool(t, root, "reset", "fix-ceiling")
	assert.Check(t, cmp.Equal(code, 0), errOut)
	assert.Check(t, cmp.Equal(readFile(t, root, counterFile), readFile(t, fixtureRoot(t), counterFile)), "reset brings the shipped code back")
}

func TestProgressCountsCommittedSolutionsInAFreshClone(t *testing.T) {
	t.Parallel()
	fork := solvedFork(t)
	clone := t.TempDir()
	git(t, clone, "clone", "-q", fork, ".")
	code, out, _ := runTool(t, clone, "progress")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Contains(out, "1 of 3 exercises solved, 0 of them verified in this tree"), "a committed solution counts in a fresh clone:\n%s", out)
	code, out, _ = runTool(t, fork, "progress")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Contains(out, "1 of 3 exercises solved, 1 of them verified in this tree"), out)
}

func TestTheStateFolderHoldsNoCopyOfTheShippedFile(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	shipped := readFile(t, root, counterFile)
	code, _, errOut := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), errOut)
	err := filepath.WalkDir(filepath.Join(root, exercise.StateDir), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		assert.NilError(t, err)
		for _, form := range []string{shipped, base64.StdEncoding.EncodeToString([]byte(shipped))} {
			assert.Check(t, !strings.Contains(string(data), form), "%s holds a copy of the shipped %s: one diff away from the fault", p, counterFile)
		}
		return nil
	})
	assert.NilError(t, err)
	// Done, the shipped code comes back all the same (from git).
	writeFile(t, root, counterFile, strings.Replace(readFile(t, root, counterFile), ceilingFault, "\tif c.n+1 > c.ceiling {\n", 1))
	code, _, errOut = runTool(t, root, "verify")
	assert.Assert(t, cmp.Equal(code, 0), errOut)
	assert.Check(t, cmp.Equal(readFile(t, root, counterFile), shipped), "once done, the file is as shipped")
}
