package drill

// This file is `drill reset`: an exercise's changes undone, byte for byte,
// with the learner's work kept aside in files it names.

import (
	"context"
	"flag"
	"fmt"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// reset runs `drill reset NAME`.
func (t *Tool) reset(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("reset", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME",
		"Puts back every file 'drill start NAME' changed, byte for byte as shipped, and marks the\n"+
			"exercise todo. What you wrote in those files is kept aside first, in .drill/aside/,\n"+
			"and reset names each copy.", t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("reset", args, false)
	if err != nil {
		return err
	}
	aside, err := exercise.Reset(set, e)
	for _, a := range aside {
		fmt.Fprintf(t.Stdout, "kept your work aside: %s\n", a)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(t.Stdout, "reset %s: the files it changed are as shipped again\n", e.Name)
	return nil
}
