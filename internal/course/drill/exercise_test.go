package drill

// Tests of the exercise commands on the fixture module: each kind's start,
// verify (passing and failing), hint levels and reset, and watch.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// The fixture's exercises, all in chapter ch03_green.
const (
	greenTests = "chapters/ch03_green/green_test.go"
	learner    = "chapters/ch03_green/learner_test_ceiling_test.go"
)

// writeFile writes data to rel under root.
func writeFile(t *testing.T, root, rel, data string) {
	t.Helper()
	assert.NilError(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(data), 0o644))
}

// readFile returns the contents of rel under root.
func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	assert.NilError(t, err)
	return string(data)
}

// withoutState removes drill's state folder, so a tree can be compared
// with the shipped one: the state is the learner's, not the course's.
func withoutState(t *testing.T, root string) {
	t.Helper()
	assert.NilError(t, os.RemoveAll(filepath.Join(root, StateDir)))
}

// progressOf returns the fixture learner's progress.
func progressOf(t *testing.T, root string) exercise.Summary {
	t.Helper()
	code, stdout, stderr := runTool(t, root, "progress", "--json")
	assert.Assert(t, cmp.Equal(code, 0), "progress: %s", stderr)
	var s exercise.Summary
	assert.NilError(t, json.Unmarshal([]byte(stdout), &s))
	return s
}

func TestExercisesListsEveryExerciseWithItsKindAndStatus(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runTool(t, fixtureRoot(t), "exercises", "--json")
	assert.Assert(t, cmp.Equal(code, 0), "stderr: %s", stderr)
	var got []exerciseEntry
	assert.NilError(t, json.Unmarshal([]byte(stdout), &got))
	assert.DeepEqual(t, got, []exerciseEntry{
		{Name: "fix-ceiling", Chapter: "ch03_green", Kind: exercise.Fix, Status: exercise.Todo,
			Summary: "Find why the counter passes its ceiling, and repair it.", Files: []string{target}},
		{Name: "test-ceiling", Chapter: "ch03_green", Kind: exercise.Test, Status: exercise.Todo,
			Summary: "Write the test that proves the ceiling holds.", Files: []string{greenTests, learner}},
		{Name: "build-add", Chapter: "ch03_green", Kind: exercise.Build, Status: exercise.Todo,
			Summary: "Write Add again: count one more, up to the ceiling.", Files: []string{target}},
	})

	code, stdout, _ = runTool(t, fixtureRoot(t), "exercises", "ch03")
	assert.Assert(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Contains(stdout, "  fix-ceiling   fix    todo  Find why the counter passes its ceiling, and repair it.\n"))
	assert.Check(t, cmp.Contains(stdout, "0 of 3 done."))
}

func TestFixExerciseStartsRedHintsAndIsDoneOnceRepaired(t *testing.T) {
	slow(t)
	t.Parallel()
	root := committedFixture(t)
	shipped := snapshot(t, root)
	original := readTarget(t, root)

	code, stdout, stderr := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)
	assert.Check(t, cmp.Len(strings.Split(strings.TrimSpace(stdout), "\n"), 3), "start says what to do in three lines:\n%s", stdout)
	assert.Check(t, cmp.Contains(readTarget(t, root), "if false {"), "start must hide the fault in the working tree")
	assert.Check(t, cmp.Equal(gitOutput(t, root, "diff"), ""), "git diff must not show the hidden fault")
	assert.Check(t, cmp.Equal(gitOutput(t, root, "status", "--porcelain"), ""), "git status must not name the file holding the hidden fault")

	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1), "verify while the fault is there must fail")
	assert.Check(t, cmp.Contains(stdout, "--- FAIL: TestCeilingHolds\n    green_test.go:16: second Add on a ceiling of 1 = <nil>; want ErrFull\n"))
	assert.Check(t, cmp.Contains(stdout, "fix-ceiling: not done: the ch03_green tests fail: TestCeilingHolds\n"))
	assert.Check(t, len(strings.Split(stdout, "\n")) <= 30, "verify says it in at most 30 lines:\n%s", stdout)

	hints := []string{
		"Hint 1 of 3 for fix-ceiling:\nThe property at stake: Add refuses to count past the ceiling.\n",
		"Hint 2 of 3 for fix-ceiling:\nThe fault is in internal/counter/counter.go, in Counter.Add.\n",
		"Hint 3 of 3 for fix-ceiling:\nLook at line 20 of internal/counter/counter.go:\n   20      if false {\n",
		"Hint 3 of 3 for fix-ceiling:\nLook at line 20 of internal/counter/counter.go:\n   20      if false {\n",
	}
	for i, want := range hints {
		code, stdout, stderr := runTool(t, root, "hint")
		assert.Check(t, cmp.Equal(code, 0), "hint %d: %s", i+1, stderr)
		assert.Check(t, strings.HasPrefix(stdout, want), "hint %d:\n%s\nwant it to start:\n%s", i+1, stdout, want)
	}

	writeFile(t, root, target, original) // the reference repair
	code, stdout, stderr = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 0), "verify after the repair: %s%s", stdout, stderr)
	assert.Check(t, cmp.Contains(stdout, "fix-ceiling: done: the ch03_green tests pass"))
	assert.Check(t, cmp.Contains(stdout, "Your solution is saved in chapters/ch03_green/solutions/fix-ceiling.txtar"))
	assert.Check(t, cmp.Contains(stdout, "Next: go run ./tools/drill start test-ceiling"))
	p := progressOf(t, root)
	assert.Check(t, cmp.Equal(p.Done, 1))
	assert.Check(t, cmp.Equal(p.Hints, 3), "the hints used are recorded")
	assert.Check(t, cmp.Equal(gitOutput(t, root, "status", "--porcelain"), "?? chapters/ch03_green/solutions/\n"),
		"once done, the solution is the one thing to commit")

	code, stdout, stderr = runTool(t, root, "reset", "fix-ceiling")
	assert.Check(t, cmp.Equal(code, 0), "reset: %s", stderr)
	assert.Check(t, cmp.Equal(stdout, "reset fix-ceiling: internal/counter/counter.go is as shipped\n"), "nothing to keep aside once done")
	assert.Check(t, cmp.Equal(progressOf(t, root).Done, 1), "reset keeps a saved solution")
	withoutState(t, root)
	assert.NilError(t, os.RemoveAll(filepath.Join(root, "chapters", "ch03_green", "solutions")))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), shipped), "start, repair and verify must leave the shipped tree byte for byte, the solution aside")
}

func TestFixExerciseRefusesARepairThatHidesAWeakening(t *testing.T) {
	slow(t)
	t.Parallel()
	root := committedFixture(t)
	code, _, stderr := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)

	// Green, but with the ceiling checked twice: the catalog's mistake
	// (dropping the check) goes unseen by the chapter's tests.
	twice := strings.Replace(readTarget(t, root), "\tif false {\n", "\tif c.n+1 > c.ceiling {\n\t\treturn ErrFull\n\t}\n\tif c.n >= c.ceiling {\n", 1)
	writeFile(t, root, target, twice)
	code, stdout, _ := runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1), "a green chapter whose weakening survives is not done:\n%s", stdout)
	assert.Check(t, cmp.Contains(stdout, "fix-ceiling: not done: the chapter is green, but its tests no longer catch weakening ceiling-ignored: Add never looks at the ceiling.\n"))

	// A different repair that is correct counts, though the weakening no
	// longer applies to it.
	other := strings.Replace(readTarget(t, root), "\tif c.n+1 > c.ceiling {\n\t\treturn ErrFull\n\t}\n\tif c.n >= c.ceiling {\n", "\tif c.ceiling <= c.n {\n", 1)
	writeFile(t, root, target, other)
	code, stdout, _ = runTool(t, root, "verify", "-v")
	assert.Check(t, cmp.Equal(code, 0), "a different correct repair counts:\n%s", stdout)
	assert.Check(t, cmp.Contains(stdout, "note: weakening ceiling-ignored does not apply to your code"))
	sol := readFile(t, root, "chapters/ch03_green/solutions/fix-ceiling.txtar")
	assert.Check(t, cmp.Contains(sol, "-- diff internal/counter/counter.go --\n"), "the solution is saved as a diff against the shipped code")
	assert.Check(t, cmp.Contains(sol, "+\tif c.ceiling <= c.n {\n"), "the diff holds the learner's own words")
	assert.Check(t, !strings.Contains(readTarget(t, root), "c.ceiling <= c.n"), "once saved, the shipped code is back, so the next exercise can start")
}

func TestTestExerciseGradesTheLearnersTestAgainstWheatAndChaffs(t *testing.T) {
	slow(t)
	t.Parallel()
	root := committedFixture(t)
	shipped := snapshot(t, root)
	shippedTests := readFile(t, root, greenTests)

	code, stdout, stderr := runTool(t, root, "start", "test-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)
	assert.Check(t, cmp.Len(strings.Split(strings.TrimSpace(stdout), "\n"), 3), "start says what to do in three lines:\n%s", stdout)
	assert.Check(t, !strings.Contains(readFile(t, root, greenTests), "TestCeilingHolds"), "the chapter's test of the property is withheld")
	assert.Check(t, cmp.Contains(readFile(t, root, learner), "func TestLearnerCeiling(t *testing.T) {"))

	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stdout, "not written yet: Add at the ceiling returns ErrFull and does not count."))
	assert.Check(t, cmp.Contains(stdout, "test-ceiling: not done: your test fails against the shipped mechanism"))

	hints := []string{
		"The property at stake: Add at the ceiling returns ErrFull and does not count.",
		"The property is decided by Counter.Add in internal/counter/counter.go",
		"The decision is made at line 20 of internal/counter/counter.go",
	}
	for i, want := range hints {
		_, stdout, _ := runTool(t, root, "hint", "test-ceiling")
		assert.Check(t, cmp.Contains(stdout, want), "hint %d", i+1)
	}

	e := loadFixtureExercise(t, "test-ceiling")
	writeFile(t, root, learner, e.Weak)
	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stdout, "test-ceiling: not done: your tests pass on the shipped mechanism but catch 0 of 2 broken copies (0%)"))
	assert.Check(t, cmp.Contains(stdout, "  - Add refuses at the ceiling\n  - the ceiling itself is refused, not only what lies past it\n"),
		"each missed chaff is named by the property it breaks:\n%s", stdout)
	assert.Check(t, !strings.Contains(stdout, "if false"), "a missed chaff is never shown as its diff")

	writeFile(t, root, learner, `package greenchapter

import (
	"errors"
	"testing"

	"example.com/drillfixture/internal/counter"
)

func TestLearnerCeiling(t *testing.T) {
	c := counter.New(1)
	c.Add()
	c.Add()
	if err := c.Add(); !errors.Is(err, counter.ErrFull) {
		t.Errorf("third Add on a ceiling of 1 = %v; want ErrFull", err)
	}
}
`)
	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stdout, "catch 1 of 2 broken copies (50%)"), stdout)
	assert.Check(t, cmp.Equal(progressOf(t, root).Chapters[0].Tests[0], exercise.TestScore{Name: "test-ceiling", Caught: 1, Chaffs: 2, Percent: 50}))

	writeFile(t, root, learner, referenceOf(t, shippedTests))
	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1), "a learner test named like the withheld one would clash with it once it comes back")
	assert.Check(t, cmp.Contains(stdout, "test-ceiling: not done: TestCeilingHolds is the name of the chapter's own test"))

	writeFile(t, root, learner, strings.ReplaceAll(referenceOf(t, shippedTests), "TestCeilingHolds", "TestMyCeilingHolds"))
	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 0), "the chapter's own test is a full score:\n%s", stdout)
	assert.Check(t, cmp.Contains(stdout, "test-ceiling: done: your tests pass on the shipped mechanism and catch all 2 broken copies."))
	assert.Check(t, cmp.Equal(readFile(t, root, greenTests), shippedTests), "once done, the withheld test goes back to the chapter")
	_, err := os.Stat(filepath.Join(root, learner))
	assert.Check(t, os.IsNotExist(err), "once done, the learner's test file moves into the solution")
	assert.Check(t, cmp.Contains(readFile(t, root, "chapters/ch03_green/solutions/test-ceiling.txtar"), "func TestMyCeilingHolds("))

	code, _, _ = runTool(t, root, "check", "ch03")
	assert.Check(t, cmp.Equal(code, 0), "a finished test exercise never fails the course's check")
	withoutState(t, root)
	assert.NilError(t, os.RemoveAll(filepath.Join(root, "chapters", "ch03_green", "solutions")))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), shipped), "a done test exercise leaves the shipped tree byte for byte, the solution aside")
}

// referenceOf turns the fixture chapter's test file into a learner file
// holding its test: the reference solution.
func referenceOf(t *testing.T, tests string) string {
	t.Helper()
	i := strings.Index(tests, "import (")
	assert.Assert(t, i > 0)
	return "package greenchapter\n\n" + tests[i:]
}

// loadFixtureExercise returns the fixture's exercise called name.
func loadFixtureExercise(t *testing.T, name string) *exercise.Exercise {
	t.Helper()
	set, err := (&Tool{Root: fixtureRoot(t)}).exerciseSet()
	assert.NilError(t, err)
	e, ok := set.Lookup(name)
	assert.Assert(t, ok, "no exercise %s in the fixture: %v", name, set.Broken)
	return e
}

func TestBuildExerciseStubsTheFunctionAndIsDoneOnceWritten(t *testing.T) {
	slow(t)
	t.Parallel()
	root := committedFixture(t)
	shipped := snapshot(t, root)
	original := readTarget(t, root)

	code, stdout, stderr := runTool(t, root, "start", "build-add")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)
	assert.Check(t, cmp.Contains(stdout, "Started build-add: Counter.Add in internal/counter/counter.go is now a stub"))
	stub := readTarget(t, root)
	assert.Check(t, cmp.Contains(stub, "func (c *Counter) Add() error {\n\treturn errors.New(\"counter: Add is yours to write (exercise build-add)\")\n}\n"))
	assert.Check(t, cmp.Contains(stub, "// Add counts one more, or returns ErrFull at the ceiling."), "the doc comment stays: it is the contract")

	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stdout, "yours to write"), "the stub fails clearly:\n%s", stdout)

	_, stdout, _ = runTool(t, root, "hint")
	_, stdout2, _ := runTool(t, root, "hint")
	_, stdout3, _ := runTool(t, root, "hint")
	assert.Check(t, cmp.Contains(stdout, "The property at stake: Add counts one more"))
	assert.Check(t, cmp.Contains(stdout2, "Write the body of Counter.Add in internal/counter/counter.go."))
	assert.Check(t, cmp.Contains(stdout3, `The section "The ceiling" of chapters/ch03_green/README.md (lines 6-9) says what it must do.`))

	noCeiling := strings.Replace(stub, "\treturn errors.New(\"counter: Add is yours to write (exercise build-add)\")\n", "\tc.n++\n\treturn nil\n", 1)
	writeFile(t, root, target, noCeiling)
	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 1), "an Add that ignores the ceiling is not done:\n%s", stdout)
	assert.Check(t, cmp.Contains(stdout, "want ErrFull"))

	writeFile(t, root, target, original)
	code, stdout, _ = runTool(t, root, "verify")
	assert.Check(t, cmp.Equal(code, 0), "the shipped body is done:\n%s", stdout)

	withoutState(t, root)
	assert.NilError(t, os.RemoveAll(filepath.Join(root, "chapters", "ch03_green", "solutions")))
	assert.Assert(t, cmp.DeepEqual(snapshot(t, root), shipped), "a done build leaves the shipped tree byte for byte, the solution aside")
}

func TestStartRefusesFilesNotAsShippedAndASecondExercise(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	before := readTarget(t, root)
	mine := before + "\n// the learner's note\n"
	writeFile(t, root, target, mine)
	code, _, stderr := runTool(t, root, "start", "build-add")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Equal(stderr, "drill start: build-add cannot start: internal/counter/counter.go differs from the shipped code; "+
		"'go run ./tools/drill reset build-add' puts it back as shipped and keeps your version aside\n"))
	git(t, root, "commit", "-q", "-am", "the learner commits an edit of the mechanism")
	code, _, _ = runTool(t, root, "start", "build-add")
	assert.Check(t, cmp.Equal(code, 1), "shipped is what the course shipped, not what HEAD holds")

	code, stdout, _ := runTool(t, root, "reset", "build-add")
	assert.Assert(t, cmp.Equal(code, 0))
	aside := strings.TrimPrefix(strings.Split(stdout, "\n")[0], "kept your work aside: ")
	assert.Check(t, cmp.Equal(readFile(t, root, aside), mine), "reset keeps the learner's version aside, in the file it names")
	assert.Check(t, cmp.Equal(readTarget(t, root), before), "reset takes the shipped bytes back from git's history")

	code, _, stderr = runTool(t, root, "start", "build-add")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)
	code, _, stderr = runTool(t, root, "start", "test-ceiling")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stderr, "another exercise is started: build-add"))
	assert.Check(t, !strings.Contains(stderr, "exercise: "), "messages name no package: %s", stderr)
	code, _, stderr = runTool(t, root, "check")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stderr, "exercise build-add is started"))
}

// TestResetNeedsNoState loses drill's state in the middle of an exercise:
// reset still puts the shipped code back, keeps the learner's half-work
// aside, and every reset keeps its copies apart.
func TestResetNeedsNoState(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	before := readTarget(t, root)
	var kept []string
	for i := range 3 {
		code, _, stderr := runTool(t, root, "start", "build-add")
		assert.Assert(t, cmp.Equal(code, 0), "start %d: %s", i, stderr)
		half := strings.Replace(readTarget(t, root), "yours to write", fmt.Sprintf("half-work %d", i), 1)
		writeFile(t, root, target, half)
		if i == 1 {
			withoutState(t, root) // .drill/ deleted mid-exercise
		}
		code, stdout, stderr := runTool(t, root, "reset", "build-add")
		assert.Assert(t, cmp.Equal(code, 0), "reset %d: %s", i, stderr)
		aside := strings.TrimPrefix(strings.Split(stdout, "\n")[0], "kept your work aside: ")
		assert.Check(t, cmp.Equal(readFile(t, root, aside), half), "reset %d keeps the half-work in the file it names", i)
		kept = append(kept, aside)
		assert.Check(t, cmp.Equal(readTarget(t, root), before), "reset %d puts the shipped code back", i)
		assert.Check(t, cmp.Equal(gitOutput(t, root, "ls-files", "-v", target), "H "+target+"\n"), "reset %d shows the file to git again", i)
	}
	assert.Check(t, kept[0] != kept[1] && kept[1] != kept[2], "resets in the same second keep their copies apart: %v", kept)
}

// gitOutput runs git in dir and returns what it printed.
func gitOutput(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	assert.NilError(t, err, "git %s", strings.Join(args, " "))
	return string(out)
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until buf holds want, for at most d.
func waitFor(t *testing.T, buf *syncBuffer, want string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(buf.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %q; output so far:\n%s", d, want, buf.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatchGradesOnSaveAndLeavesNothingBehind runs alone: it points
// TMPDIR at a folder of its own to see that watch removes every scratch
// file it made.
func TestWatchGradesOnSaveAndLeavesNothingBehind(t *testing.T) {
	slow(t)
	scratch := t.TempDir()
	t.Setenv("TMPDIR", scratch)
	root := committedFixture(t)
	original := readTarget(t, root)
	code, _, stderr := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)

	var out syncBuffer
	tool := &Tool{Root: root, Stdout: &out, Stderr: &out, Timeout: fixtureTimeout}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	exit := make(chan int, 1)
	go func() { exit <- tool.Run(ctx, []string{"watch"}) }()

	waitFor(t, &out, "fix-ceiling: not done", time.Minute)
	saved := time.Now()
	writeFile(t, root, target, original)
	waitFor(t, &out, "fix-ceiling: done", time.Minute)
	t.Logf("from save to watch verdict: %.1fs", time.Since(saved).Seconds())
	select {
	case code := <-exit:
		assert.Check(t, cmp.Equal(code, 0), "watch stops with 0 once the exercise is done")
	case <-time.After(time.Minute):
		t.Fatal("watch did not stop once the exercise was done")
	}
	assert.Check(t, cmp.Contains(out.String(), "--- saved internal/counter/counter.go\n"))

	// Ctrl-C in the middle of a grading: watch stops, and no go command
	// and no scratch file outlives it.
	code, _, _ = runTool(t, root, "reset", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0))
	code, _, stderr = runTool(t, root, "start", "build-add")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)
	var out2 syncBuffer
	tool = &Tool{Root: root, Stdout: &out2, Stderr: &out2, Timeout: fixtureTimeout}
	ctx2, interrupt := context.WithCancel(t.Context())
	go func() { exit <- tool.Run(ctx2, []string{"watch"}) }()
	waitFor(t, &out2, "build-add: not done", time.Minute)
	writeFile(t, root, target, original+"\n")
	waitFor(t, &out2, "--- saved internal/counter/counter.go", time.Minute)
	interrupt()
	select {
	case code := <-exit:
		assert.Check(t, cmp.Equal(code, 0), "Ctrl-C stops watch with 0")
	case <-time.After(30 * time.Second):
		t.Fatal("watch did not stop at Ctrl-C")
	}
	left, err := os.ReadDir(scratch)
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(left, 0), "watch left scratch files behind: %v", left)
}

func TestShowHidesTheFaultOfTheStartedExercise(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	code, stdout, _ := runTool(t, root, "show", "ceiling-ignored")
	assert.Assert(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.Contains(stdout, "+\tif false {"), "before any exercise, show gives the edit")

	code, _, stderr := runTool(t, root, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s", stderr)
	code, stdout, _ = runTool(t, root, "show", "ceiling-ignored")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, !strings.Contains(stdout, "if false"), "show gives away the hidden fault of a started exercise:\n%s", stdout)
	assert.Check(t, !strings.Contains(stdout, "Add never looks at the ceiling"), "show gives away the fault's summary:\n%s", stdout)
	assert.Check(t, cmp.Contains(stdout, "Hidden while exercise fix-ceiling is started"))
}

// TestInterruptedCommandsChangeNothing stops start, verify and grade with
// Ctrl-C: each says "interrupted", exits 1, counts nothing and leaves the
// tree as it was.
func TestInterruptedCommandsChangeNothing(t *testing.T) {
	t.Parallel()
	root := committedFixture(t)
	before := snapshot(t, root)
	interrupted, cancel := context.WithCancel(t.Context())
	cancel()
	run := func(ctx context.Context, args ...string) (int, string) {
		var out, errOut strings.Builder
		code := (&Tool{Root: root, Stdout: &out, Stderr: &errOut, Timeout: fixtureTimeout}).Run(ctx, args)
		return code, out.String() + errOut.String()
	}

	code, out := run(interrupted, "start", "test-ceiling")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Equal(out, "drill start: interrupted\n"))
	assert.Check(t, cmp.DeepEqual(snapshot(t, root), before), "an interrupted start leaves the tree as it was")

	code, out = run(t.Context(), "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), out)
	started := snapshot(t, root)
	code, out = run(interrupted, "verify")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Equal(out, "drill verify: interrupted\n"), "an interrupted verify says so, and blames no compile error")
	assert.Check(t, cmp.DeepEqual(snapshot(t, root), started), "an interrupted verify leaves the tree as it was")
	prog, err := exercise.LoadProgress(root)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(prog.Exercises["fix-ceiling"].Verifies, 0), "an interrupted verify is not counted")

	code, out = run(interrupted, "grade")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(out, "drill grade: interrupted\n"))
}

func TestListFollowsTheChaptersTeachingOrder(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	code, stdout, _ := runTool(t, root, "list", "ch02")
	assert.Assert(t, cmp.Equal(code, 0))
	var listed []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") {
			listed = append(listed, strings.TrimSpace(l))
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "chapters", "ch02_cas_claim", "README.md"))
	assert.NilError(t, err)
	var taught []string
	for _, n := range weakening.TryNames(readme) {
		if !slices.Contains(taught, n) {
			taught = append(taught, n)
		}
	}
	assert.Assert(t, len(taught) > 1)
	assert.DeepEqual(t, listed[:len(taught)], taught)
}
