package drill

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/check"
)

// checkJSON runs drill check with args on root and returns its report.
func checkJSON(t *testing.T, root string, args ...string) (int, check.Report) {
	t.Helper()
	code, stdout, stderr := runTool(t, root, append([]string{"check", "--json"}, args...)...)
	var rep check.Report
	assert.NilError(t, json.Unmarshal([]byte(stdout), &rep), "drill check --json %v printed no report:\n%s%s", args, stdout, stderr)
	return code, rep
}

// judgedNow names the weakenings a report judged rather than reused.
func judgedNow(rep check.Report) []string {
	out := []string{}
	for _, r := range rep.Weakenings {
		if !r.Reused {
			out = append(out, r.Chapter+"/"+r.Name)
		}
	}
	return out
}

// TestCheckVerdictsCarryOverWhileTheirKeysHold: a verdict written with
// --update is reused while nothing its chapter is built from changed; a
// change to the weakening's own entry judges that weakening again, a
// change to the mechanism judges the chapter again, --full judges
// everything, and a plain drill check writes nothing.
func TestCheckVerdictsCarryOverWhileTheirKeysHold(t *testing.T) {
	slow(t)
	t.Parallel()
	root := copyFixture(t)
	addSurvivor(t, root)

	before := snapshot(t, root)
	code, first := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.Equal(code, 1), "the survivor fails the check")
	assert.Check(t, cmp.DeepEqual(snapshot(t, root), before), "drill check without --update writes nothing")
	assert.Check(t, cmp.DeepEqual(judgedNow(first), []string{"ch03_green/ceiling-ignored", "ch03_green/label-ignored"}))

	checkJSON(t, root, "ch03", "--update")
	stored, err := os.ReadFile(filepath.Join(root, check.VerdictDir, "ch03_green.txt"))
	assert.NilError(t, err, "--update writes the chapter's verdicts")
	assert.Check(t, cmp.Contains(string(stored), " ceiling-ignored caught TestCeilingHolds\n"))
	assert.Check(t, !strings.Contains(string(stored), "label-ignored"), "a survivor's verdict is stored:\n%s", stored)

	_, again := checkJSON(t, root, "ch03", "--update")
	assert.Check(t, cmp.DeepEqual(judgedNow(again), []string{"ch03_green/label-ignored"}),
		"only the verdict that was not caught is judged again")
	assert.Check(t, cmp.Equal(again.Reused, 1))
	assert.Check(t, again.Baselines[0].Passed && again.Baselines[0].Reused, "a chapter whose key holds does not run its baseline again")

	// With the survivor gone, nothing is left to judge.
	assert.NilError(t, os.Remove(filepath.Join(root, "chapters/ch03_green/weakenings/label-ignored.txtar")))
	code, quiet := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.DeepEqual(judgedNow(quiet), []string{}))
	assert.Check(t, cmp.DeepEqual(quiet.Baselines[0].Tests, []string{"TestCeilingHolds"}), "the stored tests stand for the baseline")

	edit(t, root, "chapters/ch03_green/weakenings/ceiling-ignored.txtar", "expect: want ErrFull", "expect: ErrFull")
	_, entry := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.DeepEqual(judgedNow(entry), []string{"ch03_green/ceiling-ignored"}), "a changed catalog entry is judged again")

	_, full := checkJSON(t, root, "ch03", "--full", "--update")
	assert.Check(t, cmp.DeepEqual(judgedNow(full), []string{"ch03_green/ceiling-ignored"}), "--full judges every weakening")

	edit(t, root, "internal/counter/counter.go", `return "counter"`, `return "counter!"`)
	_, mech := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.DeepEqual(judgedNow(mech), []string{"ch03_green/ceiling-ignored"}), "a change to the mechanism judges the chapter again")
	assert.Check(t, !mech.Baselines[0].Reused, "a change to the mechanism runs the chapter's baseline again")

	// A test file of the chapter is part of its key; a test of the
	// mechanism's own package is not (it never reaches a chapter).
	checkJSON(t, root, "ch03", "--update")
	writeFile(t, root, "internal/counter/extra_test.go", "package counter\n")
	_, own := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.DeepEqual(judgedNow(own), []string{}), "a mechanism package's own test file re-judged the chapter")
	edit(t, root, "chapters/ch03_green/green_test.go", "package", "// a comment\npackage")
	_, chapter := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.DeepEqual(judgedNow(chapter), []string{"ch03_green/ceiling-ignored"}), "a chapter's test changed, yet its verdict was reused")
}

// TestAStaleCheckVerdictIsJudgedAgain: a stored verdict whose key does
// not match (here, another weakening's line renamed) is not trusted, and
// --sample judges reused verdicts again, saying its size and seed.
func TestAStaleCheckVerdictIsJudgedAgain(t *testing.T) {
	slow(t)
	t.Parallel()
	root := copyFixture(t)
	addSurvivor(t, root)
	code, _ := checkJSON(t, root, "ch03", "--update")
	assert.Check(t, cmp.Equal(code, 1))

	file := filepath.Join(root, check.VerdictDir, "ch03_green.txt")
	data, err := os.ReadFile(file)
	assert.NilError(t, err)
	var forged []string
	for _, l := range strings.Split(string(data), "\n") {
		forged = append(forged, l)
		if strings.Contains(l, " ceiling-ignored caught ") {
			forged = append(forged, strings.Replace(l, "ceiling-ignored", "label-ignored", 1))
		}
	}
	assert.NilError(t, os.WriteFile(file, []byte(strings.Join(forged, "\n")), 0o644))
	code, stale := checkJSON(t, root, "ch03")
	assert.Check(t, cmp.Equal(code, 1), "a stored verdict whose key does not match is not trusted")
	assert.Check(t, cmp.DeepEqual(judgedNow(stale), []string{"ch03_green/label-ignored"}))

	code, stdout, _ := runTool(t, root, "check", "ch03", "--sample", "5", "--seed", "3")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stdout, "1 stored verdicts hold: 0 reused, 1 judged again at random (seed 3, --seed 3 repeats it)\n"),
		"a sample larger than the reused verdicts judges them all, and says its seed")
	assert.Check(t, cmp.Regexp(`\[[12]/2\] caught   ch03_green ceiling-ignored`, stdout), "the sampled verdict is judged again")
}

// addSurvivor adds to chapter ch03_green of the fixture copy at root a
// weakening its test does not catch (testdata/drill/extra).
func addSurvivor(t *testing.T, root string) {
	t.Helper()
	writeFile(t, root, "chapters/ch03_green/weakenings/label-ignored.txtar", readFile(t, root, "extra/label-ignored.txtar"))
}
