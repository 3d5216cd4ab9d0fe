package drill

// This file is `drill list`: the chapters, their weakenings, and the tests
// that guard each, read from the catalog without running anything.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// list runs `drill list [CHAPTER]`.
func (t *Tool) list(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	names, err := parseArgs(fs, args, "[CHAPTER]", "Lists the chapters, their weakenings, and the tests that guard each.", t.Stderr)
	if err != nil {
		return err
	}
	if len(names) > 1 {
		return usagef("want at most one chapter, got %d: %s", len(names), strings.Join(names, " "))
	}
	_, cat, err := t.catalog()
	if err != nil {
		return err
	}
	chapters, err := pickChapters(cat, names)
	if err != nil {
		return err
	}
	if len(chapters) == 0 {
		fmt.Fprintln(t.Stdout, "no chapters yet (no chapters/chNN_* folders)")
		return nil
	}
	for i, ch := range chapters {
		if i > 0 {
			fmt.Fprintln(t.Stdout)
		}
		t.listChapter(ch, teachingOrder(cat.Root, ch))
	}
	if len(names) == 0 {
		fmt.Fprintf(t.Stdout, "\nRun 'go run ./tools/drill show NAME' to see an edit, 'go run ./tools/drill try NAME' to run it.\n")
	}
	return nil
}

// teachingOrder returns ch's weakenings in the order its text teaches
// them (the order of its try lines), any the text does not name last.
func teachingOrder(root string, ch *weakening.Chapter) []*weakening.Weakening {
	readme, _ := os.ReadFile(filepath.Join(root, weakening.ChaptersDir, ch.Name, "README.md"))
	order := weakening.TryNames(readme)
	rank := func(w *weakening.Weakening) int {
		if i := slices.Index(order, w.Name); i >= 0 {
			return i
		}
		return len(order)
	}
	ws := slices.Clone(ch.Weakenings)
	slices.SortStableFunc(ws, func(a, b *weakening.Weakening) int { return rank(a) - rank(b) })
	return ws
}

// listChapter prints one chapter's weakenings, in ws's order.
func (t *Tool) listChapter(ch *weakening.Chapter, ws []*weakening.Weakening) {
	n := len(ch.Weakenings) + len(ch.Broken)
	switch n {
	case 0:
		fmt.Fprintf(t.Stdout, "%s: no weakenings yet\n", ch.Name)
		return
	case 1:
		fmt.Fprintf(t.Stdout, "%s: 1 weakening\n", ch.Name)
	default:
		fmt.Fprintf(t.Stdout, "%s: %d weakenings\n", ch.Name, n)
	}
	for _, w := range ws {
		fmt.Fprintf(t.Stdout, "  %s\n      %s\n      edits %s; guarded by %s\n", w.Name, w.Summary, w.File, strings.Join(w.Tests, ", "))
	}
	for _, b := range ch.Broken {
		fmt.Fprintf(t.Stdout, "  %s\n      unusable: %v\n", b.Name, b.Err)
	}
}
