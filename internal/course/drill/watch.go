package drill

// This file is `drill watch`: the current exercise graded again each time
// a file is saved, showing only the first failure and the next step.
// Ctrl-C stops it; every go command it started is stopped and every
// scratch file removed before it returns.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// watch runs `drill watch [NAME] [-v]`.
func (t *Tool) watch(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "print the full log of every grading")
	args, err := parseArgs(fs, args, "[NAME] [-v]",
		"Grades an exercise (the current one if no NAME) now and again each time you save a file\n"+
			"under internal/ or its chapter, like verify, showing only the first failure and the next\n"+
			"step. It stops when the exercise is done, or at Ctrl-C.", t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("watch", args, true)
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(set.Root, "watch")
	if err != nil {
		return err
	}
	defer unlock()
	dirs := []string{filepath.Join(set.Root, "internal"), filepath.Join(set.Root, "chapters", e.Chapter)}
	fmt.Fprintf(t.Stdout, "watching internal/ and chapters/%s/ to grade %s on every save (Ctrl-C stops)\n", e.Chapter, e.Name)

	done := false
	grade := func(ctx context.Context, file string) bool {
		start := time.Now()
		if file != "" {
			rel, _ := filepath.Rel(set.Root, file)
			fmt.Fprintf(t.Stdout, "\n--- saved %s\n", filepath.ToSlash(rel))
		}
		v, err := t.verifyOnce(ctx, set, e, nil)
		switch {
		case err == nil && v.Done:
			// Done stands, even if a save came meanwhile: verify has
			// saved the solution and written the shipped code back,
			// which is itself a save.
		case ctx.Err() != nil:
			return false // a newer save, or Ctrl-C
		case errors.Is(err, errNotStarted):
			fmt.Fprintf(t.Stdout, "drill watch: %v\n", plain(err))
			return true // finished or reset elsewhere: nothing left to grade
		case err != nil:
			fmt.Fprintf(t.Stdout, "drill watch: %v\n", plain(err))
			return false
		}
		t.writeVerdict(t.Stdout, set, v, *verbose)
		fmt.Fprintf(t.Stdout, "(graded in %.1fs)\n", time.Since(start).Seconds())
		done = v.Done
		return v.Done
	}
	// The first grading is Watch's first call, made once its watches are
	// in place: a save made as soon as it answers is graded too.
	if err := exercise.Watch(ctx, dirs, grade); err != nil {
		return err
	}
	if !done {
		fmt.Fprintln(t.Stdout, "\nstopped watching")
	}
	return nil
}
