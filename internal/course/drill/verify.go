package drill

// This file is `drill verify`: one grading of an exercise, said the way
// every drill command says failures: the failing test's own message, the
// verdict, and the next step; the full log behind -v.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// verify runs `drill verify [NAME] [-v]`.
func (t *Tool) verify(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "print the full log of every go test run first")
	args, err := parseArgs(fs, args, "[NAME] [-v]",
		"Grades an exercise (the current one if no NAME). fix and build: the chapter's tests pass,\n"+
			"and still catch every weakening of the code you changed. test: your tests pass against\n"+
			"the shipped mechanism and fail against every chaff; done at 100%. Exit status 0 when done.", t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("verify", args, true)
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(set.Root, "verify")
	if err != nil {
		return err
	}
	defer unlock()
	v, err := t.verifyOnce(ctx, set, e, nil)
	if err != nil {
		return err
	}
	t.writeVerdict(t.Stdout, set, v, *verbose)
	if !v.Done {
		return errReported
	}
	return nil
}

// verifyOnce grades e once, telling step (if not nil) what it does.
func (t *Tool) verifyOnce(ctx context.Context, set *exercise.Set, e *exercise.Exercise, step func(string)) (*exercise.Verdict, error) {
	r := t.runner(set.Root)
	defer r.Close()
	v, err := exercise.Verify(ctx, set, r, e, exercise.Options{Step: step})
	if errors.Is(err, exercise.ErrNotStarted) {
		if lost, _ := exercise.Unrecorded(set); slices.Contains(lost, e) {
			return nil, fmt.Errorf("%s %w, but %s", e.Name, errNotStarted, unrecordedHint(set, e))
		}
		return nil, fmt.Errorf("%s %w: go run ./tools/drill start %s", e.Name, errNotStarted, e.Name)
	}
	return v, err
}

// writeVerdict prints v: the log if verbose, the failing test's message,
// the verdict and the next step.
func (t *Tool) writeVerdict(w io.Writer, set *exercise.Set, v *exercise.Verdict, verbose bool) {
	e := v.Exercise
	if verbose && v.Log != "" {
		fmt.Fprintf(w, "%s\n", v.Log)
	}
	if v.Message != "" {
		fmt.Fprintf(w, "%s\n\n", v.Message)
	}
	if verbose {
		for _, n := range v.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
	}
	if !v.Done {
		fmt.Fprintf(w, "%s: not done: %s\n", e.Name, v.Reason)
		fmt.Fprintf(w, "Next: %s\n", v.Next)
		if !verbose {
			fmt.Fprintf(w, "(the full log: go run ./tools/drill verify -v %s)\n", e.Name)
		}
		return
	}
	switch {
	case v.Score != nil:
		fmt.Fprintf(w, "%s: done: your tests pass on the shipped mechanism and catch all %d broken copies.\n", e.Name, v.Score.Chaffs)
	default:
		fmt.Fprintf(w, "%s: done: the %s tests pass, and still catch every weakening of what you changed.\n", e.Name, e.Chapter)
	}
	fmt.Fprintf(w, "Your solution is saved in %s, and the files it touched are as shipped again.\n", v.Saved)
	fmt.Fprintf(w, "Commit it: git add %s && git commit -m %q\n", v.Saved, "drill: "+e.Name)
	status, err := exercise.Statuses(set)
	if err != nil {
		return
	}
	if next, ok := exercise.Next(set, status, e); ok {
		fmt.Fprintf(w, "Next: go run ./tools/drill start %s (%s, %s)\n", next.Name, next.Kind, next.Chapter)
	} else {
		fmt.Fprintf(w, "Every exercise is done. go run ./tools/drill progress shows the record.\n")
	}
}

// errNotStarted is verify's answer for an exercise not started (or
// finished or reset since).
var errNotStarted = errors.New("is not started")
