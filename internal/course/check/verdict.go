package check

import "strings"

// This file holds the verdicts and the typed reasons behind them: what the
// graded check concludes about one weakening, in a form callers switch on.

// Verdict is the graded check's conclusion about one weakening.
type Verdict string

// The verdicts.
const (
	// Caught: the tree builds with the weakening, every named test ran and
	// failed, and the failing output matched the expected pattern.
	Caught Verdict = "caught"
	// Survived: the weakened tree builds and runs, but a named test passed.
	Survived Verdict = "survived"
	// Invalid: the weakening could not be graded as written (see Problem).
	Invalid Verdict = "invalid"
)

// Problem says why a weakening was not caught. Reason strings carry the
// details for a person; tests and tools switch on Problem.
type Problem string

// The problems. Every verdict other than Caught carries one.
const (
	None Problem = ""
	// TestPassed: a named test passed with the weakening applied (Survived).
	TestPassed Problem = "test_passed"
	// Malformed: the catalog file is not a usable weakening.
	Malformed Problem = "malformed"
	// FileNotFound: the file the weakening edits does not exist.
	FileNotFound Problem = "file_not_found"
	// BeforeNotFound: an edit's before-text is not in the target any more.
	BeforeNotFound Problem = "before_not_found"
	// BeforeAmbiguous: an edit's before-text occurs more than once.
	BeforeAmbiguous Problem = "before_ambiguous"
	// BuildFailed: the weakened tree does not build. A weakening that
	// breaks the build teaches nothing about the tests; it is never caught.
	BuildFailed Problem = "build_failed"
	// TestNotFound: a named test is not a test of the chapter.
	TestNotFound Problem = "test_not_found"
	// TestNotRun: a named test exists but did not run (the test binary
	// stopped before it, for example after a panic).
	TestNotRun Problem = "test_not_run"
	// Skipped: a named test skipped itself with the weakening applied.
	Skipped Problem = "skipped"
	// Timeout: the tests ran past the -timeout.
	Timeout Problem = "timeout"
	// PatternNotMatched: the named tests failed, but their output does not
	// match the catalog's expect pattern, so they may fail for another reason.
	PatternNotMatched Problem = "pattern_not_matched"
	// BaselineFailing: the chapter's tests fail (or do not build) without
	// any weakening, so no failure under a weakening means anything.
	BaselineFailing Problem = "baseline_failing"
	// RunFailed: the go command could not be run.
	RunFailed Problem = "run_failed"
)

// Result is the graded check's finding for one weakening.
type Result struct {
	Chapter     string   `json:"chapter"`
	Name        string   `json:"name"`
	Verdict     Verdict  `json:"verdict"`
	Problem     Problem  `json:"problem,omitempty"`
	Reason      string   `json:"reason"`       // "" when caught
	FailedTests []string `json:"failed_tests"` // top-level tests that failed under the weakening
	Seconds     float64  `json:"seconds"`
	Tests       []string `json:"tests"` // the tests the catalog says must fail
	// Reused: the verdict is a stored one whose key holds (carry.go).
	Reused bool `json:"reused,omitempty"`
}

// invalid returns r as an Invalid result for problem p.
func (r Result) invalid(p Problem, reason string) Result {
	r.Verdict, r.Problem, r.Reason = Invalid, p, reason
	return r
}

// Counts tallies the verdicts of a report.
type Counts struct{ Caught, Survived, Invalid int }

// Counts returns how many weakenings got each verdict.
func (rep *Report) Counts() Counts {
	var c Counts
	for _, r := range rep.Weakenings {
		switch r.Verdict {
		case Caught:
			c.Caught++
		case Survived:
			c.Survived++
		default:
			c.Invalid++
		}
	}
	return c
}

// Detail is what a table row says after the verdict: the failed tests of
// a caught weakening, the reason of any other.
func (r Result) Detail() string {
	if r.Verdict == Caught {
		return strings.Join(r.FailedTests, ", ")
	}
	return r.Reason
}
