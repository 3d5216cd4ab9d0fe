package mutate

// This file runs one judge's test binary with one mutant switched on and
// says whether a test failed, and which first.

import (
	"context"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// outcome is what one run of a test binary showed.
type outcome struct {
	failed bool
	by     string // the first failing test and its first failure line
}

// scriptTests are the tests that run the runner's scripts: the slow part
// of a chapter, since every script starts processes.
const scriptTests = "^TestScripts$"

// run runs judge j's binary from the shared build with mutant num
// switched on (0: none); selection, if given, picks the tests, else the
// judge's own pattern, if it has one.
func (b *build) run(ctx context.Context, j *judge, num int, timeout time.Duration, selection ...string) (outcome, error) {
	bin, _ := b.shared.Binary(j.Name)
	return b.runBinary(ctx, bin, num, timeout, j.pick(selection)...)
}

// pick returns selection, or with none the judge's own pattern.
func (j *judge) pick(selection []string) []string {
	if len(selection) == 0 && j.tests != "" {
		return []string{"-test.run=" + j.tests}
	}
	return selection
}

// runBinary runs bin failing fast and bounded by timeout. Without a
// selection the in-process tests run first and the scripts only if they
// all pass: -failfast stops starting tests after a failure but waits for
// the ones already running, and the scripts would run in parallel to the
// end.
func (b *build) runBinary(ctx context.Context, bin variant.Binary, num int, timeout time.Duration, selection ...string) (outcome, error) {
	if len(selection) > 0 {
		return b.runTests(ctx, bin, num, timeout, selection...)
	}
	if o, err := b.runTests(ctx, bin, num, timeout, "-test.skip="+scriptTests); err != nil || o.failed {
		return o, err
	}
	return b.runTests(ctx, bin, num, timeout, "-test.run="+scriptTests)
}

// runTests runs the tests of bin that flags pick.
func (b *build) runTests(ctx context.Context, bin variant.Binary, num int, timeout time.Duration, flags ...string) (outcome, error) {
	run, err := b.cfg.Runner.RunBinary(ctx, bin, num, timeout, append([]string{"-test.failfast"}, flags...)...)
	if err != nil {
		return outcome{}, err
	}
	if test, why, ok := run.FirstFailed(); ok {
		if why != "" {
			test += ": " + why
		}
		return outcome{failed: true, by: test}, nil
	}
	switch {
	case run.TimedOut:
		return outcome{failed: true, by: "timeout: the tests did not finish within " + timeout.String()}, nil
	case run.Action != "pass":
		return outcome{failed: true, by: "the test binary failed: " + run.CrashLine()}, nil
	}
	return outcome{}, nil
}
