package drill

// This file is `drill exercises`: every exercise with its kind and status,
// and the lookups the other exercise commands share.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// exerciseEntry is one line of `drill exercises --json`.
type exerciseEntry struct {
	Name    string          `json:"name"`
	Chapter string          `json:"chapter"`
	Kind    exercise.Kind   `json:"kind"`
	Status  exercise.Status `json:"status"`
	Summary string          `json:"summary"`
	Files   []string        `json:"files"` // the repository paths it touches
}

// exercisesCmd runs `drill exercises [CHAPTER] [--json]`.
func (t *Tool) exercisesCmd(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("exercises", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, `print [{"name", "chapter", "kind", "status", "summary", "files"}] instead of a table`)
	names, err := parseArgs(fs, args, "[CHAPTER] [--json]",
		"Lists the exercises, chapter by chapter, with their kind (fix, test, build) and your\n"+
			"status: todo; started; done (your solution is saved and verified here); saved (your\n"+
			"solution is saved but not verified in this checkout: go run ./tools/drill grade);\n"+
			"edited (not started, yet a file it touches differs from the shipped code: reset it);\n"+
			"outdated (saved by an older drill, which grade does not count: start it and verify again).", t.Stderr)
	if err != nil {
		return err
	}
	if len(names) > 1 {
		return usagef("want at most one chapter, got %d: %s", len(names), strings.Join(names, " "))
	}
	set, err := t.exerciseSet()
	if err != nil {
		return err
	}
	chapters, err := pickChapters(set.Catalog, names)
	if err != nil {
		return err
	}
	status, err := exercise.Statuses(set)
	if err != nil {
		return err
	}
	entries := []exerciseEntry{}
	for _, ch := range chapters {
		for _, e := range set.InChapter(ch.Name) {
			files, err := set.Files(e)
			if err != nil {
				return err
			}
			entries = append(entries, exerciseEntry{Name: e.Name, Chapter: e.Chapter, Kind: e.Kind, Status: status[e.Name],
				Summary: e.Summary, Files: files})
		}
	}
	if *asJSON {
		return writeJSON(t.Stdout, entries)
	}
	t.writeExercises(set, entries)
	return nil
}

// writeExercises prints entries as a table, chapter by chapter, and the
// totals.
func (t *Tool) writeExercises(set *exercise.Set, entries []exerciseEntry) {
	tw := tabwriter.NewWriter(t.Stdout, 0, 4, 2, ' ', 0)
	done, saved, chapter := 0, 0, ""
	for _, en := range entries {
		if en.Chapter != chapter {
			chapter = en.Chapter
			fmt.Fprintf(tw, "%s\n", chapter)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", en.Name, en.Kind, en.Status, en.Summary)
		switch en.Status {
		case exercise.Done:
			done++
		case exercise.Saved:
			saved++
		}
	}
	tw.Flush()
	for _, b := range set.Broken {
		fmt.Fprintf(t.Stdout, "  %s: unusable: %v\n", b.Name, b.Err)
	}
	if len(entries) == 0 {
		fmt.Fprintln(t.Stdout, "no exercises yet (no chapters/*/exercises/*.txtar)")
		return
	}
	fmt.Fprintf(t.Stdout, "\n%d of %d done. Begin one with 'go run ./tools/drill start NAME'.\n", done, len(entries))
	if saved > 0 {
		fmt.Fprintf(t.Stdout, "%d more saved but not verified in this checkout: go run ./tools/drill grade\n", saved)
	}
	if lost := unrecordedHint(set, nil); lost != "" {
		fmt.Fprintln(t.Stdout, strings.ToUpper(lost[:1])+lost[1:])
	}
}

// unrecordedHint says which exercises look started with no record of it
// (drill's state folder lost mid-exercise), and the one command that
// recovers; "" if none does. If e is not nil, the hint is about e.
func unrecordedHint(set *exercise.Set, e *exercise.Exercise) string {
	lost, err := exercise.Unrecorded(set)
	if err != nil || len(lost) == 0 {
		return ""
	}
	if e != nil && slices.Contains(lost, e) {
		lost[0] = e
	}
	files, _ := set.Files(lost[0])
	return fmt.Sprintf("%s differs from the shipped code with no record of a start (was %s/ removed mid-exercise?): "+
		"go run ./tools/drill reset %s puts the shipped code back and keeps your changes aside, then start it again",
		strings.Join(files, ", "), exercise.StateDir, lost[0].Name)
}

// exerciseSet loads the module's catalog and its exercises.
func (t *Tool) exerciseSet() (*exercise.Set, error) {
	_, cat, err := t.catalog()
	if err != nil {
		return nil, err
	}
	return exercise.Load(cat)
}

// exerciseNamed returns the set and the exercise args names. With no
// name, and if optional, it is the current exercise (the one started
// last).
func (t *Tool) exerciseNamed(cmd string, args []string, optional bool) (*exercise.Set, *exercise.Exercise, error) {
	if len(args) > 1 || len(args) == 0 && !optional {
		return nil, nil, usagef("want exactly one exercise name, as in 'go run ./tools/drill %s NAME' (names: go run ./tools/drill exercises)", cmd)
	}
	set, err := t.exerciseSet()
	if err != nil {
		return nil, nil, err
	}
	name := ""
	if len(args) == 1 {
		name = args[0]
	} else {
		prog, err := exercise.LoadProgress(set.Root)
		if err != nil {
			return nil, nil, err
		}
		if name = prog.Current; name == "" {
			if lost := unrecordedHint(set, nil); lost != "" {
				return nil, nil, errors.New("no exercise started, but " + lost)
			}
			return nil, nil, fmt.Errorf("no exercise started; begin one with 'go run ./tools/drill start NAME' (names: go run ./tools/drill exercises)")
		}
	}
	if e, ok := set.Lookup(name); ok {
		return set, e, nil
	}
	if b, ok := set.LookupBroken(name); ok {
		return nil, nil, fmt.Errorf("%s cannot be used: %w", name, b.Err)
	}
	return nil, nil, t.unknownExercise(set, name)
}

// unknownExercise is the misuse of naming no exercise: it says what was
// probably meant, a weakening's name included.
func (t *Tool) unknownExercise(set *exercise.Set, name string) error {
	if w, ok := set.Catalog.Lookup(name); ok {
		return usagef("%q is a weakening of %s, not an exercise: try it with 'go run ./tools/drill try %s' (exercises: go run ./tools/drill exercises)", name, w.Chapter, name)
	}
	var names []string
	for _, e := range set.Exercises {
		names = append(names, e.Name)
	}
	if near := nearest(name, names); near != "" {
		return usagef("unknown exercise %q (did you mean %s?): run 'go run ./tools/drill exercises' for the names", name, near)
	}
	return usagef("unknown exercise %q: run 'go run ./tools/drill exercises' for the names", name)
}

// startedExercise returns the exercise that is started and not done, if
// any: its chapter is red on purpose.
func startedExercise(root string) (string, bool, error) { return exercise.Active(root) }
