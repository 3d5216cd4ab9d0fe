package drill

// This file is `drill try`: a learner's run of one exercise. The chapter's
// tests run with the weakening applied through go test -overlay, the
// failures are shown as they happen, and one line says what happened.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/check"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// try runs `drill try NAME`. It exits 0 when the weakening is caught (the
// exercise worked), 1 otherwise.
func (t *Tool) try(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("try", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "show every test as it finishes, with the whole output of each failing one")
	args, err := parseArgs(fs, args, "NAME [-v]",
		"Runs the chapter's tests with the weakening applied through go test -overlay (your files\n"+
			"are never touched), shows what the failing tests say, and ends with the verdict: caught,\n"+
			"survived or invalid. -v shows the full log.", t.Stderr)
	if err != nil {
		return err
	}
	root, w, err := t.named("try", args)
	if err != nil {
		return err
	}
	if a, ok, err := readApplied(root); err != nil {
		return err
	} else if ok {
		fmt.Fprintf(t.Stderr, "drill try: note: %s is applied to %s in the working tree (drill apply); the run sees both edits\n", a.Name, a.File)
	}
	if name, ok, err := startedExercise(root); err != nil {
		return err
	} else if ok {
		fmt.Fprintf(t.Stderr, "drill try: note: exercise %s is started; the run sees its changes too\n", name)
	}

	out := t.Stdout
	fmt.Fprintf(out, "%s: %s\n", w.Name, w.Summary)
	fmt.Fprintf(out, "Running the %s tests with %s weakened (your copy of the file is not touched).\n", w.Chapter, w.File)
	fmt.Fprintf(out, "Must fail: %s\n\n", strings.Join(w.Tests, ", "))

	r := t.runner(root)
	defer r.Close()
	var live io.Writer
	if *verbose {
		live = out
	}
	res, run, err := check.Try(ctx, r, w, live)
	if err != nil {
		return fmt.Errorf("try %s: %w", w.Name, err)
	}
	if run == nil {
		fmt.Fprintln(out, verdictLine(w, res))
		return errReported
	}
	if !*verbose {
		if m := tryMessages(w, run); m != "" {
			fmt.Fprintf(out, "%s\n", m)
		}
		fmt.Fprintf(out, "(the full log: go run ./tools/drill try -v %s)\n", w.Name)
	}
	fmt.Fprintf(out, "\n%s\n", verdictLine(w, res))
	if res.Verdict != check.Caught {
		return errReported
	}
	return nil
}

// tryLines bounds the failure messages try shows without -v.
const tryLines = 22

// tryMessages returns what the failing tests said: each named test's
// message first, then the other failures', within tryLines lines.
func tryMessages(w *weakening.Weakening, run *variant.PackageRun) string {
	var order []string
	for _, name := range w.Tests {
		top, _, _ := strings.Cut(name, "/")
		order = append(order, top)
	}
	for _, n := range run.FailOrder {
		if top, _, _ := strings.Cut(n, "/"); !slices.Contains(order, top) {
			order = append(order, top)
		}
	}
	var lines []string
	left := 0
	for _, top := range order {
		m := run.MessageOf(top)
		if m == "" || slices.Contains(lines, "--- FAIL: "+top) {
			continue
		}
		ml := strings.Split(m, "\n")
		if len(lines)+len(ml) > tryLines {
			left++
			continue
		}
		lines = append(lines, ml...)
	}
	if left > 0 {
		lines = append(lines, fmt.Sprintf("... and %d more failing tests", left))
	}
	return strings.Join(lines, "\n")
}

// verdictLine is the one line that ends a try.
func verdictLine(w *weakening.Weakening, r check.Result) string {
	switch r.Verdict {
	case check.Caught:
		s := fmt.Sprintf("caught: %s failed", strings.Join(w.Tests, ", "))
		if w.Expect != "" {
			s += fmt.Sprintf(" and the output matched /%s/", w.Expect)
		}
		if extra := without(r.FailedTests, w.Tests); len(extra) > 0 {
			s += fmt.Sprintf(" (also failed: %s)", strings.Join(extra, ", "))
		}
		return s + "."
	case check.Survived:
		return "survived: " + r.Reason + ". The tests did not notice this mistake."
	default:
		return "invalid: " + r.Reason
	}
}

// without returns the names in all that are not in (or under) some name
// of named.
func without(all, named []string) []string {
	var out []string
outer:
	for _, a := range all {
		for _, n := range named {
			if top, _, _ := strings.Cut(n, "/"); top == a {
				continue outer
			}
		}
		out = append(out, a)
	}
	return out
}
