package drill

// This file is `drill start`: one exercise begun, its chapter made red,
// and three lines saying what to do and what to run.

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// start runs `drill start NAME`.
func (t *Tool) start(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME",
		"Begins an exercise: hides a fault (fix), withholds the chapter's tests for a property and\n"+
			"creates your test file (test), or replaces a function with a stub (build). The chapter\n"+
			"goes red until you are done. The files it touches must be as shipped; it names any that\n"+
			"are not, and 'go run ./tools/drill reset NAME' puts them back (keeping yours aside).\n"+
			"git diff and git status do not show the started exercise's files until it is done or\n"+
			"reset (drill marks them skip-worktree in git's index).", t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("start", args, false)
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(set.Root, "start")
	if err != nil {
		return err
	}
	defer unlock()
	if a, ok, err := readApplied(set.Root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s is applied to %s (drill apply); run 'go run ./tools/drill restore' first, so the exercise starts from the shipped code", a.Name, a.File)
	}
	w, err := exercise.Start(ctx, set, e)
	var ns *exercise.NotShippedError
	switch {
	case errors.As(err, &ns):
		return fmt.Errorf("%s cannot start: %v; 'go run ./tools/drill reset %s' puts it back as shipped and keeps your version aside", e.Name, ns, e.Name)
	case errors.Is(err, exercise.ErrNotReset):
		return fmt.Errorf("%s was started before; 'go run ./tools/drill reset %s' keeps your work aside and puts the shipped code back, then start it again", e.Name, e.Name)
	case errors.Is(err, exercise.ErrLearnerFileExists):
		return fmt.Errorf("%s cannot start: %s holds earlier work; 'go run ./tools/drill reset %s' keeps it aside", e.Name, e.LearnerFile(), e.Name)
	case err != nil:
		return err
	}
	t.startedLines(e, w)
	return nil
}

// startedLines says in three lines what to do and what to run.
func (t *Tool) startedLines(e *exercise.Exercise, w *exercise.Work) {
	out := t.Stdout
	test := fmt.Sprintf("go test ./chapters/%s/", e.Chapter)
	grade := "go run ./tools/drill verify (or keep 'go run ./tools/drill watch' running; stuck? go run ./tools/drill hint)"
	switch e.Kind {
	case exercise.Fix:
		fmt.Fprintf(out, "Started %s: a fault is now hidden in the mechanism, and the %s tests fail.\n", e.Name, e.Chapter)
		fmt.Fprintf(out, "Find it and repair it from what the failures say: %s\n", test)
		fmt.Fprintf(out, "Then grade it: %s\n", grade)
	case exercise.Test:
		fmt.Fprintf(out, "Started %s: the chapter's tests of this property are withheld; write yours in %s\n", e.Name, e.LearnerFile())
		fmt.Fprintf(out, "The property: %s\n", e.Property)
		fmt.Fprintf(out, "Grade your tests against the shipped code and %d broken copies: %s\n", len(w.Chaffs), grade)
	case exercise.Build:
		fmt.Fprintf(out, "Started %s: %s in %s is now a stub, and the %s tests fail.\n", e.Name, e.Func, e.File, e.Chapter)
		fmt.Fprintf(out, "Write its body again from the chapter's text and its doc comment: %s\n", test)
		fmt.Fprintf(out, "Then grade it: %s\n", grade)
	}
}
