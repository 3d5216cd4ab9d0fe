package drill

// A grade proves the learner's own work: a solution is applied to the
// exercise's starting point (the fault hidden again) in a copy of a
// pristine course, and every chapter the code reaches must stay green. So
// an empty solution, a comment, a repair that breaks another chapter, an
// early exit of the test binary, or a fork's edited tests all fail; and
// the fork's own grade names every course file it changed.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

const (
	counterFile  = "internal/counter/counter.go"
	ceilingCheck = "\tif c.n >= c.ceiling {\n"
	ceilingFault = "\tif false {\n" // the fault fix-ceiling starts from
	fixCeiling   = "chapters/ch03_green/solutions/fix-ceiling.txtar"
)

// writeNew writes data to rel under root, making its folder.
func writeNew(t *testing.T, root, rel, data string) {
	t.Helper()
	assert.NilError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755))
	writeFile(t, root, rel, data)
}

// solvedFork is a learner's fork, committed, in which fix-ceiling was
// started, repaired in the learner's own words and verified.
func solvedFork(t *testing.T) string {
	t.Helper()
	fork := committedFixture(t)
	code, out, errOut := runTool(t, fork, "start", "fix-ceiling")
	assert.Assert(t, cmp.Equal(code, 0), "start: %s%s", out, errOut)
	src := readFile(t, fork, counterFile)
	assert.Assert(t, cmp.Contains(src, ceilingFault), "start must hide the fault")
	writeNew(t, fork, counterFile, strings.Replace(src, ceilingFault, "\tif c.n+1 > c.ceiling {\n", 1))
	code, out, errOut = runTool(t, fork, "verify")
	assert.Assert(t, cmp.Equal(code, 0), "verify of a genuine repair: %s%s", out, errOut)
	git(t, fork, "add", "-A")
	git(t, fork, "commit", "-q", "-m", "fix-ceiling")
	return fork
}

// startingPoint is counter.go as fix-ceiling's start leaves it.
func startingPoint(t *testing.T) string {
	src := readFile(t, fixtureRoot(t), counterFile)
	return strings.Replace(src, ceilingCheck, ceilingFault, 1)
}

// solutionFrom returns a saved solution of fix-ceiling whose diff turns
// the starting point into after.
func solutionFrom(t *testing.T, after string) string {
	d := diff.Diff("a/"+counterFile, []byte(startingPoint(t)), "b/"+counterFile, []byte(after))
	return "A solution.\n\nfrom: start\n-- diff " + counterFile + " --\n" + string(d)
}

// gradeJSON runs drill grade --json with args in root and returns its
// exit status and report.
func gradeJSON(t *testing.T, root string, args ...string) (int, gradeReport) {
	t.Helper()
	code, out, errOut := runTool(t, root, append([]string{"grade", "--json"}, args...)...)
	var rep gradeReport
	assert.NilError(t, json.Unmarshal([]byte(out), &rep), "grade --json printed:\n%s%s", out, errOut)
	return code, rep
}

// verdictOf returns name's grade in rep.
func verdictOf(t *testing.T, rep gradeReport, name string) exercise.GradeResult {
	t.Helper()
	for _, g := range rep.Exercises {
		if g.Name == name {
			return g
		}
	}
	t.Fatalf("the grade has no verdict for %s", name)
	return exercise.GradeResult{}
}

func TestAGenuineRepairIsVerifiedAgainstAPristineCourse(t *testing.T) {
	t.Parallel()
	fork := solvedFork(t)
	sol := readFile(t, fork, fixCeiling)
	assert.Check(t, cmp.Contains(sol, "\nfrom: start\n"), "a solution says it is a diff from the starting point")
	assert.Check(t, cmp.Contains(sol, "-\tif false {\n+\tif c.n+1 > c.ceiling {\n"), "the diff runs from the fault to the learner's line:\n%s", sol)

	code, rep := gradeJSON(t, fork, "--course", copyFixture(t))
	g := verdictOf(t, rep, "fix-ceiling")
	assert.Check(t, cmp.Equal(g.Verdict, exercise.Verified), "a genuine repair graded against the course: %s %s", g.Verdict, g.Detail)
	assert.Check(t, rep.Proven, "a grade against a pristine course is proven")
	assert.Check(t, cmp.Equal(code, 0))
}

func TestASolutionThatIsNotARepairFails(t *testing.T) {
	t.Parallel()
	course := copyFixture(t)
	start := startingPoint(t)
	// The old format: a diff against the shipped code, here an empty one.
	old := "Your solution.\n-- diff " + counterFile + " --\n"
	cases := []struct {
		name, solution, why string
	}{
		{"empty diff", "from: start\n-- diff " + counterFile + " --\n", "changes no code"},
		{"a comment only", solutionFrom(t, strings.Replace(start, ceilingFault, "\t// I fixed the ceiling.\n"+ceilingFault, 1)), "changes no code"},
		{"spacing only", solutionFrom(t, strings.Replace(start, ceilingFault, "\tif  false  {   \n", 1)), "changes no code"},
		{"a repair that breaks another chapter", solutionFrom(t, strings.Replace(start, ceilingFault, "\tif c.n >= c.ceiling || c.ceiling == 3 {\n", 1)),
			"breaks another chapter: the ch01_counter tests fail: TestAddCountsUp"},
		{"an init that ends the test binary", solutionFrom(t, strings.Replace(strings.Replace(start, `import "errors"`, "import (\n\t\"errors\"\n\t\"os\"\n)", 1),
			"// Value returns", "func init() { os.Exit(0) }\n\n// Value returns", 1)), "TestCeilingHolds"},
		{"the old format", old, "older drill"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fork := copyFixture(t)
			writeNew(t, fork, fixCeiling, c.solution)
			code, rep := gradeJSON(t, fork, "--course", course, "fix-ceiling")
			g := verdictOf(t, rep, "fix-ceiling")
			assert.Check(t, cmp.Equal(g.Verdict, exercise.Failed), "%s graded %s: %s", c.name, g.Verdict, g.Detail)
			assert.Check(t, cmp.Contains(g.Detail, c.why), "%s: the reason", c.name)
			if c.name == "an init that ends the test binary" {
				assert.Check(t, cmp.Contains(g.Output, "the test binary exited without running"), "a binary that exits 0 before its tests is not green")
			}
			assert.Check(t, cmp.Equal(code, 1), "a failed solution sets exit status 1")
		})
	}
}

func TestAForksEditedTestsDecideNothingAgainstTheCourse(t *testing.T) {
	t.Parallel()
	fork := copyFixture(t)
	// The fault left in place, and the chapter's test edited to pass.
	writeNew(t, fork, fixCeiling, solutionFrom(t, strings.Replace(startingPoint(t), ceilingFault, "\tif c.n > c.ceiling+5 {\n", 1)))
	writeNew(t, fork, "chapters/ch03_green/green_test.go", "package greenchapter\n\nimport \"testing\"\n\nfunc TestCeilingHolds(t *testing.T) {}\n")

	code, rep := gradeJSON(t, fork, "--course", copyFixture(t), "fix-ceiling")
	g := verdictOf(t, rep, "fix-ceiling")
	assert.Check(t, cmp.Equal(g.Verdict, exercise.Failed), "against the course, the fork's edited test plays no part: %s", g.Verdict)
	assert.Check(t, cmp.Contains(g.Output, "want ErrFull"), "the failing test's output is carried: %q", g.Output)
	assert.Check(t, cmp.Equal(code, 1))
}

func TestTheForksOwnGradeNamesEveryChangedCourseFile(t *testing.T) {
	t.Parallel()
	fork := solvedFork(t)
	writeNew(t, fork, "chapters/ch03_green/green_test.go", "package greenchapter\n\nimport \"testing\"\n\nfunc TestCeilingHolds(t *testing.T) {}\n")
	writeNew(t, fork, "chapters/ch01_counter/zz_test.go", "package counterchapter\n")

	code, out, _ := runTool(t, fork, "grade", "fix-ceiling")
	assert.Check(t, cmp.Contains(out, "changed course files: chapters/ch01_counter/zz_test.go chapters/ch03_green/green_test.go\n"), out)
	assert.Check(t, cmp.Contains(out, "not proven"), out)
	assert.Check(t, cmp.Equal(code, 1), "a grade that edited course files decided is not proven:\n%s", out)

	_, rep := gradeJSON(t, fork, "fix-ceiling")
	assert.Check(t, !rep.Proven)
	assert.Check(t, cmp.DeepEqual(rep.ChangedCourseFiles, []string{"chapters/ch01_counter/zz_test.go", "chapters/ch03_green/green_test.go"}))

	// Put back, the same grade is proven.
	assert.NilError(t, os.Remove(filepath.Join(fork, "chapters/ch01_counter/zz_test.go")))
	git(t, fork, "checkout", "--", "chapters/ch03_green/green_test.go")
	code, rep = gradeJSON(t, fork, "fix-ceiling")
	assert.Check(t, rep.Proven && len(rep.ChangedCourseFiles) == 0, "%v", rep.ChangedCourseFiles)
	assert.Check(t, cmp.Equal(verdictOf(t, rep, "fix-ceiling").Verdict, exercise.Verified))
	assert.Check(t, cmp.Equal(code, 0))
}

func TestAClassIsGradedInOneTable(t *testing.T) {
	t.Parallel()
	course := copyFixture(t)
	good := solvedFork(t)
	bad := copyFixture(t)
	writeNew(t, bad, fixCeiling, "from: start\n-- diff "+counterFile+" --\n")
	gone := filepath.Join(t.TempDir(), "no-such-fork.git")

	code, out, errOut := runTool(t, t.TempDir(), "grade", "--course", course, good, bad, gone)
	assert.Check(t, cmp.Equal(code, 1), "a failed solution in the class sets exit status 1:\n%s%s", out, errOut)
	lines := strings.Split(out, "\n")
	var row, total string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "fix-ceiling "):
			row = l
		case strings.HasPrefix(l, "verified "):
			total = l
		}
	}
	assert.Check(t, cmp.Equal(strings.Join(strings.Fields(row), " "), "fix-ceiling verified failed -"), "one row per exercise, one column per learner:\n%s", out)
	assert.Check(t, cmp.Contains(total, "1/3"), out)
	assert.Check(t, cmp.Contains(total, "0/3"), out)
	assert.Check(t, cmp.Contains(total, "error: cannot clone "+gone), "a fork that cannot be read is named, not fatal:\n%s", out)

	code, out, _ = runTool(t, t.TempDir(), "grade", "--markdown", "--course", course, good, bad)
	assert.Check(t, cmp.Contains(out, "| fix-ceiling | verified | failed |"), out)
	assert.Check(t, cmp.Equal(code, 1))

	var class classReport
	code, out, _ = runTool(t, t.TempDir(), "grade", "--json", "--course", course, good, bad)
	assert.NilError(t, json.Unmarshal([]byte(out), &class))
	assert.Assert(t, cmp.Len(class.Learners, 2))
	assert.Check(t, cmp.Equal(class.Learners[0].Verified, 1))
	assert.Check(t, cmp.Equal(class.Learners[1].Verified, 0))
	assert.Check(t, cmp.Equal(code, 1))
}

func TestGradingForksNeedsACourse(t *testing.T) {
	t.Parallel()
	code, _, errOut := runTool(t, copyFixture(t), "grade", copyFixture(t))
	assert.Check(t, cmp.Equal(code, 2))
	assert.Check(t, cmp.Contains(errOut, "grading forks needs --course"))
	code, _, errOut = runTool(t, copyFixture(t), "grade", "--course", "not a folder")
	assert.Check(t, cmp.Equal(code, 2))
	assert.Check(t, cmp.Contains(errOut, "neither a folder nor MODULE@VERSION"))
}

// TestACourseVersionComesThroughTheGoCommand grades against
// MODULE@VERSION served by a module proxy in a folder (GOPROXY=file://),
// as a fork's CI grades against a release: no network, and the grade
// reads nothing of the fork but its solutions.
func TestACourseVersionComesThroughTheGoCommand(t *testing.T) {
	t.Parallel()
	const mod, version = "example.com/drillfixture", "v1.0.0"
	proxy := t.TempDir()
	dir := filepath.Join(proxy, mod, "@v")
	assert.NilError(t, os.MkdirAll(dir, 0o755))
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	assert.NilError(t, err)
	assert.NilError(t, modzip.CreateFromDir(f, module.Version{Path: mod, Version: version}, fixtureRoot(t)))
	assert.NilError(t, f.Close())
	gomod, err := os.ReadFile(filepath.Join(fixtureRoot(t), "go.mod"))
	assert.NilError(t, err)
	assert.NilError(t, os.WriteFile(filepath.Join(dir, version+".mod"), gomod, 0o644))
	assert.NilError(t, os.WriteFile(filepath.Join(dir, version+".info"), []byte(`{"Version":"v1.0.0","Time":"2026-01-01T00:00:00Z"}`), 0o644))
	assert.NilError(t, os.WriteFile(filepath.Join(dir, "list"), []byte(version+"\n"), 0o644))

	fork := solvedFork(t)
	var stdout, stderr strings.Builder
	tool := &Tool{Root: fork, Stdout: &stdout, Stderr: &stderr, Timeout: fixtureTimeout, Env: []string{
		"GOPROXY=file://" + filepath.ToSlash(proxy), "GOSUMDB=off", "GOFLAGS=-modcacherw", "GOMODCACHE=" + t.TempDir(),
	}}
	code := tool.Run(t.Context(), []string{"grade", "--json", "--course", mod + "@" + version, "fix-ceiling"})
	var rep gradeReport
	assert.NilError(t, json.Unmarshal([]byte(stdout.String()), &rep), "%s%s", stdout.String(), stderr.String())
	assert.Check(t, cmp.Equal(verdictOf(t, rep, "fix-ceiling").Verdict, exercise.Verified))
	assert.Check(t, cmp.Equal(rep.Course, mod+"@"+version))
	assert.Check(t, cmp.Equal(code, 0))

	code = tool.Run(t.Context(), []string{"grade", "--course", mod + "@v9.9.9"})
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stderr.String(), "the go command could not fetch it"), stderr.String())
}
