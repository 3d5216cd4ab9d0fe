package drill

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestTryShowsTheFailureAndEndsWithTheVerdict(t *testing.T) {
	slow(t)
	t.Parallel()
	root := fixtureRoot(t)
	cases := []struct {
		name  string
		code  int
		shows string // a line of output the learner must see
		last  string // the verdict line
	}{
		{"ceiling-off-by-one", 0,
			"the counter passed its ceiling",
			"caught: TestCeilingRefusesAdd failed and the output matched /passed its ceiling/."},
		{"label-changes", 1,
			"ok    TestAddCountsUp",
			"survived: TestAddCountsUp passed with the weakening applied. The tests did not notice this mistake."},
		{"breaks-build", 1,
			"internal/counter/counter.go:20:14: c.maximum undefined",
			"invalid: build failed: internal/counter/counter.go:20:14: c.maximum undefined (type *Counter has no field or method maximum)"},
		{"stale-before", 1,
			"Must fail: TestCeilingRefusesAdd",
			"invalid: before-text not found in internal/counter/counter.go (edit 1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runTool(t, root, "try", tc.name)
			assert.Check(t, cmp.Equal(code, tc.code), "drill try %s; stderr: %s", tc.name, stderr)
			assert.Check(t, cmp.Contains(stdout, tc.shows))
			assert.Check(t, !strings.Contains(stdout, "drill-"+tc.name), "output names the scratch copy instead of the real file:\n%s", stdout)
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			assert.Check(t, cmp.Equal(lines[len(lines)-1], tc.last))
		})
	}
}
