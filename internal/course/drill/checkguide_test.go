package drill

// The graded check reads like a guide: a test that fails under a
// weakening no tests: line names is told which; a weakening or an
// exercise the chapter's text never names fails the check; a survivor
// is given its next steps.

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestCheckNamesTheWeakeningANewTestBelongsTo(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	writeNew(t, root, "chapters/ch03_green/more_test.go", `package greenchapter

import (
	"errors"
	"testing"

	"example.com/drillfixture/internal/counter"
)

func TestCeilingOfTwoHolds(t *testing.T) {
	c := counter.New(2)
	c.Add()
	c.Add()
	if err := c.Add(); !errors.Is(err, counter.ErrFull) {
		t.Errorf("third Add on a ceiling of 2 = %v; want ErrFull", err)
	}
}
`)
	code, out, _ := runTool(t, root, "check", "ch03")
	assert.Check(t, cmp.Equal(code, 1), "a test no weakening names fails the check:\n%s", out)
	assert.Check(t, cmp.Contains(out, "ch03_green  TestCeilingOfTwoHolds: it fails under ceiling-ignored; add TestCeilingOfTwoHolds to the tests: line of chapters/ch03_green/weakenings/ceiling-ignored.txtar"), out)
}

// TestCheckFailsOnWhatItsChapterTextNeverNames: a weakening or an
// exercise the chapter's text never names is one no reader finds, and
// fails the check, naming it.
func TestCheckFailsOnWhatItsChapterTextNeverNames(t *testing.T) {
	t.Parallel()
	cases := []struct{ line, want string }{
		{"go run ./tools/drill try ceiling-ignored", "chapters/ch03_green/README.md never names weakening ceiling-ignored"},
		{"go run ./tools/drill start build-add", "chapters/ch03_green/README.md never names exercise build-add"},
	}
	for _, c := range cases {
		root := copyFixture(t)
		readme := "chapters/ch03_green/README.md"
		writeFile(t, root, readme, strings.Replace(readFile(t, root, readme), c.line, "see above", 1))
		code, out, _ := runTool(t, root, "check", "ch03")
		assert.Check(t, cmp.Equal(code, 1), "a text without %q passes the check:\n%s", c.line, out)
		assert.Check(t, cmp.Contains(out, c.want), out)
	}
}

func TestASurvivingWeakeningIsGivenItsNextSteps(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	survivor := readFile(t, root, "extra/label-ignored.txtar")
	writeNew(t, root, "chapters/ch03_green/weakenings/label-ignored.txtar", survivor)
	readme := "chapters/ch03_green/README.md"
	writeFile(t, root, readme, readFile(t, root, readme)+"\n    go run ./tools/drill try label-ignored\n")
	code, out, _ := runTool(t, root, "check", "ch03")
	assert.Check(t, cmp.Equal(code, 1), out)
	for _, step := range []string{"label-ignored survived", "1. see what ran and what passed: go run ./tools/drill try -v label-ignored",
		"2. if a test should catch it", "chapters/ch03_green/weakenings/label-ignored.txtar", "3. if no test of the chapter can see the mistake"} {
		assert.Check(t, cmp.Contains(out, step), out)
	}
}
