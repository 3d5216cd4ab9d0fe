package variant

import (
	"testing"

	"gotest.tools/v3/assert"
)

// runWith returns a PackageRun in which the tests failed in the given order,
// each with the given output.
func runWith(failed [][2]string) *PackageRun {
	run := &PackageRun{Tests: map[string]*Test{}}
	for _, f := range failed {
		tr := &Test{Name: f[0], Action: "fail"}
		tr.Output.WriteString(f[1])
		run.Tests[f[0]] = tr
		run.FailOrder = append(run.FailOrder, f[0])
	}
	return run
}

func TestFirstFailurePrefersAGoTestsMessageToAScripts(t *testing.T) {
	t.Parallel()
	run := runWith([][2]string{
		{"TestScripts/claim", "=== RUN   TestScripts/claim\n        WORK=$WORK\n        # phase one (0.1s)\n        > exec fencelab claim\n        # phase two (0.0s)\n        > json stdout a == b\n        FAIL: testdata/script/claim.txtar:15: stdout: a = \"c\"; want == \"b\"\n--- FAIL: TestScripts/claim (0.2s)\n"},
		{"TestScripts", "--- FAIL: TestScripts (0.0s)\n"},
		{"TestTokenCompletes", "=== RUN   TestTokenCompletes\n    claim_test.go:26: Complete(msg-1, token 99) = accepted; want refused stale_token\n--- FAIL: TestTokenCompletes (0.0s)\n"},
	})
	assert.Equal(t, run.FirstFailure(), "--- FAIL: TestTokenCompletes\n    claim_test.go:26: Complete(msg-1, token 99) = accepted; want refused stale_token")
	assert.Equal(t, run.MessageOf("TestScripts"), "--- FAIL: TestScripts/claim\n    # phase two (0.0s)\n    > json stdout a == b\n    FAIL: testdata/script/claim.txtar:15: stdout: a = \"c\"; want == \"b\"",
		"a script's failure keeps its phase, its command and its FAIL line")
}

func TestMessageOfKeepsTheFirstLinesOfALongMessage(t *testing.T) {
	t.Parallel()
	out := "=== RUN   TestLong\n"
	for i := range 12 {
		out += "    long_test.go:1: line " + string(rune('a'+i)) + "\n"
	}
	run := runWith([][2]string{{"TestLong", out}})
	m := run.MessageOf("TestLong")
	assert.Equal(t, m, "--- FAIL: TestLong\n    long_test.go:1: line a\n    long_test.go:1: line b\n    long_test.go:1: line c\n"+
		"    long_test.go:1: line d\n    long_test.go:1: line e\n    long_test.go:1: line f\n    long_test.go:1: line g\n"+
		"    ... 5 more lines (-v shows them)")
}
