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
		flags []string
		code  int
		shows string // a line of output the learner must see
		last  string // the verdict line
	}{
		{"ceiling-off-by-one", nil, 0,
			"--- FAIL: TestCeilingRefusesAdd\n    counter_test.go:30: third Add on a ceiling of 2 = <nil>, value 3: the counter passed its ceiling\n",
			"caught: TestCeilingRefusesAdd failed and the output matched /passed its ceiling/."},
		{"label-changes", nil, 1,
			"(the full log: go run ./tools/drill try -v label-changes)",
			"survived: TestAddCountsUp passed with the weakening applied. The tests did not notice this mistake."},
		{"label-changes", []string{"-v"}, 1,
			"ok    TestAddCountsUp",
			"survived: TestAddCountsUp passed with the weakening applied. The tests did not notice this mistake."},
		{"breaks-build", nil, 1,
			"internal/counter/counter.go:20:14: c.maximum undefined",
			"invalid: build failed: internal/counter/counter.go:20:14: c.maximum undefined (type *Counter has no field or method maximum)"},
		{"stale-before", nil, 1,
			"Must fail: TestCeilingRefusesAdd",
			"invalid: before-text not found in internal/counter/counter.go (edit 1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name+strings.Join(tc.flags, ""), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runTool(t, root, append([]string{"try", tc.name}, tc.flags...)...)
			assert.Check(t, cmp.Equal(code, tc.code), "drill try %s; stderr: %s", tc.name, stderr)
			assert.Check(t, cmp.Contains(stdout, tc.shows))
			assert.Check(t, !strings.Contains(stdout, "drill-"+tc.name), "output names the scratch copy instead of the real file:\n%s", stdout)
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			assert.Check(t, cmp.Equal(lines[len(lines)-1], tc.last))
			if len(tc.flags) == 0 {
				assert.Check(t, len(lines) <= 30, "without -v, try must say it in at most 30 lines; got %d:\n%s", len(lines), stdout)
				assert.Check(t, !strings.Contains(stdout, "ok    "), "without -v, passing tests are not listed:\n%s", stdout)
			}
		})
	}
}
