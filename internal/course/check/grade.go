package check

// This file grades one weakening: the chapter's named tests run with the
// weakening applied, through its own overlay or through the shared build's
// switch, and the run is evaluated by the rules in evaluate.go.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Grade runs the tests w names, in chapter w.Chapter's package with w
// applied to the tree under r.Root through an overlay, and evaluates the
// run. listed holds the chapter's top-level tests, or nil if unknown. The
// working tree is never written.
func Grade(ctx context.Context, r *variant.Runner, w *weakening.Weakening, listed []string) (Result, error) {
	res, _, err := run(ctx, r, w, listed, variant.GoTest{Flags: []string{"-run", namedTests(w)}}, nil)
	return res, err
}

// Try runs every test of w's chapter with w applied, showing the run on
// live as it happens (nil for nothing; see variant.LivePrinter), and
// returns the verdict and the run itself, for a person to read the
// failures. The run is nil when w could not be applied (its verdict says
// why).
func Try(ctx context.Context, r *variant.Runner, w *weakening.Weakening, live io.Writer) (Result, *variant.PackageRun, error) {
	return run(ctx, r, w, nil, variant.GoTest{}, live)
}

// Overlay returns the overlay that applies w to the tree under r.Root,
// writing w's file into a directory of r's; a renamer turns the copy's
// name back into w.File in messages. The error is a *weakening.MatchError
// or wraps fs.ErrNotExist when w does not apply (see Problems).
func Overlay(ctx context.Context, r *variant.Runner, w *weakening.Weakening) (variant.Overlay, error) {
	dir, err := r.TempDir(ctx, "weakening-")
	if err != nil {
		return nil, err
	}
	ov, err := w.WriteOverlay(r.Root, dir)
	if err != nil {
		return nil, err
	}
	return variant.Overlay{filepath.Join(r.Root, filepath.FromSlash(w.File)): ov.Copy}, nil
}

// run applies w through an overlay, runs g on its chapter (shown on live
// if it is not nil) and evaluates.
func run(ctx context.Context, r *variant.Runner, w *weakening.Weakening, listed []string, g variant.GoTest, live io.Writer) (Result, *variant.PackageRun, error) {
	res := Result{Chapter: w.Chapter, Name: w.Name, FailedTests: []string{}, Tests: w.Tests}
	ov, err := Overlay(ctx, r, w)
	if err != nil {
		if p, reason, ok := overlayProblem(w, err); ok {
			return res.invalid(p, reason), nil, nil
		}
		return res, nil, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	g.Packages, g.Overlay = []string{"./" + weakening.ChaptersDir + "/" + w.Chapter + "/"}, ov
	if live != nil {
		g.OnEvent = variant.NewLivePrinter(live, ov.Renamer(r.Root)).Event
	}
	runs, err := r.GoTest(ctx, g)
	if err != nil {
		return res, nil, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	pr, ok := variant.RunOf(runs, w.Chapter)
	if !ok {
		return res.invalid(RunFailed, "the go command reported nothing for chapter "+w.Chapter), nil, nil
	}
	return evaluate(w, pr, listed, ov.Renamer(r.Root)), pr, nil
}

// gradeSwitched runs w's chapter binary from the shared build with w's
// switch on and evaluates the run as Grade does.
func gradeSwitched(ctx context.Context, r *variant.Runner, w *weakening.Weakening, num int, bin variant.Binary, listed []string) (Result, error) {
	res := Result{Chapter: w.Chapter, Name: w.Name, FailedTests: []string{}, Tests: w.Tests}
	pr, err := r.RunBinary(ctx, bin, num, r.TestTimeout(), "-test.run="+namedTests(w))
	if err != nil {
		return res, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	return evaluate(w, pr, listed, nil), nil
}

// overlayProblem maps an error from WriteOverlay that is the weakening's
// fault (its file is gone, its before-text does not match) to a Problem
// and a reason; ok is false for any other error.
func overlayProblem(w *weakening.Weakening, err error) (p Problem, reason string, ok bool) {
	var m *weakening.MatchError
	switch {
	case errors.As(err, &m) && errors.Is(err, weakening.ErrBeforeNotFound):
		return BeforeNotFound, m.Error(), true
	case errors.As(err, &m):
		return BeforeAmbiguous, m.Error(), true
	case errors.Is(err, fs.ErrNotExist):
		return FileNotFound, "file not found: " + w.File, true
	}
	return None, "", false
}

// namedTests is the -run pattern for the top-level tests w names. A
// weakening is graded by the tests it names: the catalog says which test
// guards against which mistake, and a chapter test no weakening names
// counts as never failing. Running only those tests leaves the slow
// scripts out of every weakening that does not name them.
func namedTests(w *weakening.Weakening) string { return variant.RunPattern(w.Tests) }

// GradeEach grades every weakening of ws as Grade does, but in one shared
// build: the way to grade several weakenings of one chapter at once
// without a build each. listed holds their chapter's top-level tests, or
// nil if unknown. The results are in the order of ws.
func GradeEach(ctx context.Context, r *variant.Runner, ws []*weakening.Weakening, listed []string) ([]Result, error) {
	queue := make([]job, len(ws))
	for i, w := range ws {
		queue[i] = job{w: w, listed: listed}
	}
	shared, err := buildShared(ctx, r, queue, func(string) {})
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(ws))
	byWeakening := map[*weakening.Weakening]int{}
	for i, w := range ws {
		byWeakening[w] = i
	}
	err = gradeAll(ctx, r, queue, shared, func(res Result) {
		for w, i := range byWeakening {
			if w.Chapter == res.Chapter && w.Name == res.Name {
				out[i] = res
			}
		}
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return out, err
}
