package drill

// This file is `drill reset`: the files an exercise touches put back as
// shipped, byte for byte, with the learner's work kept aside in files it
// names. It needs no record of the start: .drill/ may be gone.

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// reset runs `drill reset NAME`.
func (t *Tool) reset(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("reset", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME",
		"Puts every file the exercise touches back as shipped, byte for byte, removes its test file\n"+
			"(test exercises), and forgets its start. What you wrote in those files is kept aside\n"+
			"first, in a new folder under .drill/aside/, and reset names each copy. A saved solution\n"+
			"is never touched. Works even if .drill/ is gone.", t.Stderr)
	if err != nil {
		return err
	}
	set, e, err := t.exerciseNamed("reset", args, false)
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(set.Root, "reset")
	if err != nil {
		return err
	}
	defer unlock()
	aside, err := exercise.Reset(ctx, set, e)
	for _, a := range aside {
		fmt.Fprintf(t.Stdout, "kept your work aside: %s\n", a)
	}
	if err != nil {
		return err
	}
	files, err := set.ShippedFiles(e)
	if err != nil {
		return err
	}
	verb := "are"
	if len(files) == 1 {
		verb = "is"
	}
	fmt.Fprintf(t.Stdout, "reset %s: %s %s as shipped\n", e.Name, strings.Join(files, " and "), verb)
	return nil
}
