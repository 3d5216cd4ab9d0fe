package drill

// This file is `drill hint`: the next hint of an exercise, one level per
// call, recorded in the learner's progress.

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// hint runs `drill hint [NAME]`.
func (t *Tool) hint(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("hint", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "[NAME]",
		fmt.Sprintf("Gives the next hint for an exercise (the current one if no NAME), one level per call,\n"+
			"%d levels: the property at stake, then the file and function, then the lines. Hints\n"+
			"used are recorded in your progress.", exercise.Levels), t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("hint", args, true)
	if err != nil {
		return err
	}
	h, err := exercise.NextHint(set, e)
	if errors.Is(err, exercise.ErrNotStarted) {
		return fmt.Errorf("%s is not started; hints belong to a started exercise: go run ./tools/drill start %s", e.Name, e.Name)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(t.Stdout, "Hint %d of %d for %s:\n%s\n", h.Level, exercise.Levels, e.Name, h.Text)
	if h.Level < exercise.Levels {
		fmt.Fprintf(t.Stdout, "(run it again for a narrower one)\n")
	}
	return nil
}
