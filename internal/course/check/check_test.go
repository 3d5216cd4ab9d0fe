package check

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// TestCheckGivesEachFixtureWeakeningItsVerdict grades the fixture module
// in testdata/drill at the top of the repository, which holds one
// weakening per verdict and reason (-timeout 3s: the fixture's tests take
// milliseconds, and never-settles must time out quickly).
func TestCheckGivesEachFixtureWeakeningItsVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the fixture module; skipped with -short")
	}
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "drill"))
	assert.NilError(t, err)
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	r := &variant.Runner{Root: root, Timeout: 3 * time.Second}
	t.Cleanup(func() { assert.Check(t, r.Close()) })

	rep, err := Check(t.Context(), r, cat.Chapters, Options{})
	assert.NilError(t, err)

	type want struct {
		verdict Verdict
		problem Problem
		reason  string // exact, or a prefix when it ends in "..."
		failed  []string
	}
	wants := map[string]want{
		"ceiling-off-by-one": {Caught, None, "", []string{"TestCeilingRefusesAdd"}},
		"label-changes":      {Survived, TestPassed, "TestAddCountsUp passed with the weakening applied", []string{}},
		"stale-before":       {Invalid, BeforeNotFound, "before-text not found in internal/counter/counter.go (edit 1)", []string{}},
		"missing-file":       {Invalid, FileNotFound, "file not found: internal/counter/gone.go", []string{}},
		"repeated-before": {Invalid, BeforeAmbiguous,
			"before-text found 2 times in internal/counter/counter.go (edit 1); it must occur exactly once", []string{}},
		"breaks-build": {Invalid, BuildFailed, "build failed: internal/counter/counter.go:20:14: c.maximum undefined (type *Counter has no field or method maximum)", []string{}},
		"not-durable": {Invalid, Skipped,
			"skipped: TestDurableCounterKeepsValue skipped itself with the weakening applied", []string{}},
		"no-such-test": {Invalid, TestNotFound, "test not found: TestNoSuchTest is not a test of ch01_counter", []string{}},
		"wrong-pattern": {Invalid, PatternNotMatched,
			"pattern not matched: the output of TestCeilingRefusesAdd does not match /went negative/", []string{"TestCeilingRefusesAdd"}},
		"never-settles": {Invalid, Timeout,
			"timeout: the tests did not finish within the -timeout (still running: TestSettles)", []string{}},
		"outside-internal": {Invalid, Malformed,
			"malformed catalog entry: chapters/ch01_counter/weakenings/outside-internal.txtar: weakening: malformed catalog entry: " +
				`file "chapters/ch01_counter/counter_test.go": the target must live under internal/`, []string{}},
		"red-anyway":      {Invalid, BaselineFailing, "baseline failing: TestAlwaysRed failed without any weakening", []string{}},
		"ceiling-ignored": {Caught, None, "", []string{"TestCeilingHolds"}},
	}
	assert.Equal(t, len(rep.Weakenings), len(wants), "one result per catalog file: %+v", rep.Weakenings)
	for _, r := range rep.Weakenings {
		w, ok := wants[r.Name]
		if !ok {
			t.Errorf("unexpected weakening %s in the report", r.Name)
			continue
		}
		assert.Check(t, r.Verdict == w.verdict && r.Problem == w.problem,
			"%s: verdict %s (%s); want %s (%s); reason %q", r.Name, r.Verdict, r.Problem, w.verdict, w.problem, r.Reason)
		if prefix, ok := strings.CutSuffix(w.reason, "..."); ok {
			assert.Check(t, strings.HasPrefix(r.Reason, prefix), "%s: reason %q; want it to start %q", r.Name, r.Reason, prefix)
		} else {
			assert.Check(t, r.Reason == w.reason, "%s: reason %q; want %q", r.Name, r.Reason, w.reason)
		}
		assert.Check(t, slices.Equal(r.FailedTests, w.failed), "%s: failed tests %v; want %v", r.Name, r.FailedTests, w.failed)
	}

	assert.DeepEqual(t, rep.NeverFailing, []ChapterTest{
		{Chapter: "ch01_counter", Test: "TestAddCountsUp"},
		{Chapter: "ch01_counter", Test: "TestDurableCounterKeepsValue"},
		{Chapter: "ch01_counter", Test: "TestSettles"},
	})
	assert.DeepEqual(t, rep.Excused, []ChapterTest{{Chapter: "ch01_counter", Test: "TestLabelIsNotEmpty",
		Reason: "the label is for people; the fixture has no weakening that empties it."}})
	for i := range rep.Baselines {
		rep.Baselines[i].Seconds = 0 // timing varies
	}
	assert.DeepEqual(t, rep.Baselines, []Baseline{
		{Chapter: "ch01_counter", Passed: true, Tests: []string{"TestAddCountsUp", "TestCeilingRefusesAdd",
			"TestDurableCounterKeepsValue", "TestSettles", "TestLabelIsNotEmpty"}},
		{Chapter: "ch02_red", Reason: "TestAlwaysRed failed without any weakening", Tests: []string{"TestAlwaysRed"}},
		{Chapter: "ch03_green", Passed: true, Tests: []string{"TestCeilingHolds"}},
	})
	assert.Check(t, !rep.OK, "a report with survivors, invalid weakenings and never-failing tests is not OK")
}
