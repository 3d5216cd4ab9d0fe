package drill

// This file is `drill restore`: undo what `drill apply` did, byte for
// byte, and nothing it did not do.

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// ErrChangedSinceApply is returned by restore when the file is neither as
// apply left it nor as it was before: the learner edited it since, and
// writing the original back would lose that work.
var ErrChangedSinceApply = errors.New("drill: file changed since drill apply")

// restore runs `drill restore`.
func (t *Tool) restore(_ context.Context, args []string) error {
	flags := flag.NewFlagSet("restore", flag.ContinueOnError)
	args, err := parseArgs(flags, args, "",
		"Undoes what 'go run ./tools/drill apply NAME' did, byte for byte. Refuses if you changed\n"+
			"the file since (your edits would be lost).", t.Stderr)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("takes no arguments, got %q: it undoes the one weakening drill apply made", args[0])
	}
	root, err := t.root()
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(root, "restore")
	if err != nil {
		return err
	}
	defer unlock()
	a, ok, err := readApplied(root)
	if err != nil {
		return err
	}
	if !ok {
		fmt.Fprintln(t.Stdout, "nothing to restore: drill apply has not changed any file")
		return nil
	}
	state, _, err := a.State(root)
	switch {
	case err != nil:
		return fmt.Errorf("restore %w", err)
	case state == exercise.Undone:
		fmt.Fprintf(t.Stdout, "%s already holds its original content; forgot %s\n", a.File, a.Name)
		return forgetApplied(root)
	case state == exercise.Changed:
		return fmt.Errorf("%w: %s is not as 'drill apply %s' left it, so restoring would lose your edits; "+
			"undo them and rerun restore, or keep the file and delete %s to make drill forget the apply",
			ErrChangedSinceApply, a.File, a.Name, statePath(root))
	}
	if err := a.Undo(root); err != nil {
		return fmt.Errorf("restore %s: %w", a.File, err)
	}
	if err := forgetApplied(root); err != nil {
		return err
	}
	fmt.Fprintf(t.Stdout, "restored %s (undid %s)\n", a.File, a.Name)
	return nil
}
