package drill

// This file is `drill start`: one exercise begun, its chapter made red,
// and three lines saying what to do and what to run.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// start runs `drill start NAME`.
func (t *Tool) start(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME",
		"Begins an exercise: hides a fault (fix), withholds the chapter's tests for a property and\n"+
			"creates your test file (test), or replaces a function with a stub (build). The chapter\n"+
			"goes red until you are done. Refuses files with uncommitted changes (git tells which);\n"+
			"'go run ./tools/drill reset NAME' puts everything back.", t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("start", args, false)
	if err != nil {
		return err
	}
	if a, ok, err := readApplied(set.Root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s is applied to %s (drill apply); run 'go run ./tools/drill restore' first, so the exercise starts from the shipped code", a.Name, a.File)
	}
	guard := func(files []string) error {
		s, err := gitStatus(ctx, set.Root, files)
		if err != nil {
			return fmt.Errorf("%w, and %s; start changes files and reset must be able to put them back",
				ErrNoGit, gitProblem(err))
		}
		if s != "" {
			return fmt.Errorf("%w: %s; commit or undo your changes first, so reset cannot lose them",
				ErrUncommitted, strings.ReplaceAll(s, "\n", ", "))
		}
		return nil
	}
	w, err := exercise.Start(ctx, set, e, guard)
	switch {
	case errors.Is(err, exercise.ErrNotReset):
		return fmt.Errorf("%s was started before; 'go run ./tools/drill reset %s' keeps your work aside and puts the shipped code back, then start it again", e.Name, e.Name)
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
		learner := w.Edits[len(w.Edits)-1].File
		fmt.Fprintf(out, "Started %s: the chapter's tests of this property are withheld; write yours in %s\n", e.Name, learner)
		fmt.Fprintf(out, "The property: %s\n", e.Property)
		fmt.Fprintf(out, "Grade your tests against the shipped code and %d broken copies: %s\n", len(w.Chaffs), grade)
	case exercise.Build:
		fmt.Fprintf(out, "Started %s: %s in %s is now a stub, and the %s tests fail.\n", e.Name, e.Func, e.File, e.Chapter)
		fmt.Fprintf(out, "Write its body again from the chapter's text and its doc comment: %s\n", test)
		fmt.Fprintf(out, "Then grade it: %s\n", grade)
	}
}
