package drill

// This file is `drill show`: one weakening as a learner meets it, the edit
// as a unified diff, the commands to run it, and the failure to expect.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// show runs `drill show NAME`.
func (t *Tool) show(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME", "Shows a weakening: the edit as a diff, the command to run, the failure to expect.", t.Stderr)
	if err != nil {
		return err
	}
	root, w, err := t.named("show", args)
	if err != nil {
		return err
	}
	if hiddenBy, err := t.hiddenBy(root, w.Name); err != nil {
		return err
	} else if hiddenBy != "" {
		fmt.Fprintf(t.Stdout, "%s (chapter %s)\n\nHidden while exercise %s is started: it is what the exercise asks you to find.\n"+
			"'go run ./tools/drill hint' reveals it one level at a time; 'go run ./tools/drill reset %s' ends the exercise.\n",
			w.Name, w.Chapter, hiddenBy, hiddenBy)
		return nil
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(w.File)))
	if err != nil {
		return fmt.Errorf("show %s: %w", w.Name, err)
	}

	out := t.Stdout
	fmt.Fprintf(out, "%s (chapter %s)\n%s\n\n", w.Name, w.Chapter, w.Summary)
	weak, applyErr := w.Apply(src)
	if applyErr == nil {
		fmt.Fprint(out, weakening.Diff(w.File, src, weak))
	} else {
		// Show the edit as written, so the learner can still find where it
		// was meant to go.
		for i, e := range w.Edits {
			fmt.Fprintf(out, "edit %d of %s, as the catalog writes it:\n", i+1, w.File)
			fmt.Fprint(out, weakening.Diff(w.File, []byte(e.Before), []byte(e.After)))
		}
	}
	fmt.Fprintf(out, "\nTry it (your files stay as they are):\n  %s %s\n", weakening.TryCommand, w.Name)
	fmt.Fprintf(out, "\nOr by hand, with the edit in your editor:\n")
	fmt.Fprintf(out, "  go run ./tools/drill apply %s\n", w.Name)
	fmt.Fprintf(out, "  go test ./%s/%s/ -run '%s'\n", weakening.ChaptersDir, w.Chapter, variant.RunPattern(w.Tests))
	fmt.Fprintf(out, "  go run ./tools/drill restore\n")
	fmt.Fprintf(out, "\nExpect: %s.\n", expectation(w))
	if applyErr != nil {
		var m *weakening.MatchError
		if errors.As(applyErr, &m) {
			applyErr = m
		}
		return fmt.Errorf("%s no longer applies to the source: %w", w.Name, applyErr)
	}
	return nil
}

// expectation says in words what a learner should see.
func expectation(w *weakening.Weakening) string {
	s := strings.Join(w.Tests, " and ") + " fail"
	if len(w.Tests) == 1 {
		s += "s"
	}
	if w.Expect != "" {
		s += fmt.Sprintf(", and the failure output matches /%s/", w.Expect)
	}
	return s
}

// hiddenBy returns the started exercise whose hidden fault, or one of
// whose chaffs, is the weakening called name: showing its edit would give
// the exercise away. It returns "" if there is none.
func (t *Tool) hiddenBy(root, name string) (string, error) {
	cur, ok, err := exercise.Active(root)
	if err != nil || !ok {
		return "", err
	}
	set, err := t.exerciseSet()
	if err != nil {
		return "", err
	}
	e, ok := set.Lookup(cur)
	if !ok {
		return "", nil
	}
	if e.Fault == name || slices.ContainsFunc(e.Chaffs, func(c exercise.Chaff) bool { return c.ID == name }) {
		return e.Name, nil
	}
	return "", nil
}
