package exercise

// This file is what grading needs from the go command, as an interface:
// package drill runs the tests; this package decides what they mean.

import (
	"context"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Runner runs a chapter's tests for grading. Package drill provides one
// over its go test machinery; any implementation must be safe for
// concurrent use.
type Runner interface {
	// Run runs the chapter's tests as req asks.
	Run(ctx context.Context, req Request) (*Outcome, error)
	// Grade runs the chapter's tests with weakening w applied to the
	// working tree as it is now, and says whether its tests still catch it.
	Grade(ctx context.Context, w *weakening.Weakening) (Graded, error)
}

// Request is one go test run of a chapter.
type Request struct {
	Chapter string // the chapter folder's name
	// Replace maps absolute paths in the module to files whose contents
	// the build uses instead (the go command's -overlay); nil for none.
	Replace map[string]string
	// Tests are the top-level tests to run; all of the chapter's if empty.
	Tests []string
}

// Outcome is what a run did.
type Outcome struct {
	// Passed is true when the package built and every test that ran passed.
	Passed bool
	// BuildFailed is true when the chapter did not compile; Message holds
	// the compiler's first lines.
	BuildFailed bool
	// Failed are the top-level tests that failed, in the order they failed.
	Failed []string
	// Message is the first failure in the failing test's own words, a few
	// lines long: what a learner reads first.
	Message string
	// Output is the output of every failed test, for matching an expect
	// pattern against.
	Output string
	// Log is everything the run printed, for -v.
	Log string
}

// Graded is a weakening graded against the working tree as the learner
// left it.
type Graded struct {
	// Applies is false when the weakening's edit cannot be made to the
	// learner's code (its before-text is not there) or the result does
	// not build: it says nothing about the learner's code then.
	Applies bool
	// Caught is true when its tests still fail with it applied.
	Caught bool
	// Reason says why it was not caught, or why it does not apply.
	Reason string
}
