package check

// This file decides a verdict from one run of a chapter package under a
// weakening: the rules of the graded check, in order.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// evaluate grades run, the chapter package's tests under w's overlay.
// listed holds the chapter's top-level tests, or nil if unknown (try does
// not list them). rename, if not nil, turns the weakened copy the build
// read back into w's target in compiler messages.
//
// The rules, first failure wins: the build succeeds; the tests finish
// within the timeout; every named test exists, ran and did not skip; every
// named test failed (else Survived); their output matches w.Expect.
func evaluate(w *weakening.Weakening, run *variant.PackageRun, listed []string, rename *strings.Replacer) Result {
	r := Result{
		Chapter:     w.Chapter,
		Name:        w.Name,
		Verdict:     Caught,
		FailedTests: run.FailedTopLevel(),
		Seconds:     round(run.Seconds),
		Tests:       w.Tests,
	}
	if run.BuildFailed {
		msg := run.BuildOutput
		if rename != nil {
			msg = rename.Replace(msg)
		}
		return r.invalid(BuildFailed, "build failed: "+variant.FirstLines(msg, 3, "; "))
	}
	if run.TimedOut {
		reason := "timeout: the tests did not finish within the -timeout"
		if running := run.Running(); len(running) > 0 {
			reason += " (still running: " + strings.Join(running, ", ") + ")"
		}
		return r.invalid(Timeout, reason)
	}
	for _, name := range w.Tests {
		res := run.Tests[name]
		top, _, _ := strings.Cut(name, "/")
		switch {
		case res == nil && listed != nil && !slices.Contains(listed, top):
			return r.invalid(TestNotFound, fmt.Sprintf("test not found: %s is not a test of %s", top, w.Chapter))
		case res == nil && listed == nil:
			return r.invalid(TestNotFound, fmt.Sprintf("test not found: %s did not run (no such test, or the test binary stopped before it)", name))
		case res == nil || res.Action == "":
			return r.invalid(TestNotRun, fmt.Sprintf("test did not run: %s (the test binary stopped before it finished)", name))
		case res.Action == "skip":
			return r.invalid(Skipped, fmt.Sprintf("skipped: %s skipped itself with the weakening applied", name))
		}
	}
	var passed []string
	for _, name := range w.Tests {
		if run.Tests[name].Action == "pass" {
			passed = append(passed, name)
		}
	}
	if len(passed) > 0 {
		r.Verdict, r.Problem = Survived, TestPassed
		r.Reason = strings.Join(passed, ", ") + " passed with the weakening applied"
		return r
	}
	if w.Expect != "" {
		re := regexp.MustCompile(w.Expect) // Validate compiled it already
		var out strings.Builder
		for _, name := range w.Tests {
			out.WriteString(run.OutputOf(name))
		}
		if !re.MatchString(out.String()) {
			return r.invalid(PatternNotMatched, fmt.Sprintf("pattern not matched: the output of %s does not match /%s/",
				strings.Join(w.Tests, ", "), w.Expect))
		}
	}
	return r
}

// round keeps seconds to one decimal place for reports.
func round(s float64) float64 { return float64(int(s*10+0.5)) / 10 }
