package drill

// This file is `drill try`: a learner's run of one exercise. The chapter's
// tests run with the weakening applied through go test -overlay, the
// failures are shown as they happen, and one line says what happened.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

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

	dir, err := os.MkdirTemp("", "drill-"+w.Name+"-")
	if err != nil {
		return fmt.Errorf("try %s: %w", w.Name, err)
	}
	defer os.RemoveAll(dir)

	out := t.Stdout
	fmt.Fprintf(out, "%s: %s\n", w.Name, w.Summary)
	fmt.Fprintf(out, "Running the %s tests with %s weakened (your copy of the file is not touched).\n", w.Chapter, w.File)
	fmt.Fprintf(out, "Must fail: %s\n\n", strings.Join(w.Tests, ", "))

	ov, err := w.WriteOverlay(root, dir)
	if err != nil {
		if p, reason, ok := overlayProblem(w, err); ok {
			r := Result{Chapter: w.Chapter, Name: w.Name}.invalid(p, reason)
			fmt.Fprintln(out, verdictLine(w, r))
			return errReported
		}
		return err
	}
	var onEvent func(testEvent)
	if *verbose {
		onEvent = newLivePrinter(out, ov.Copy, w.File).event
	}
	runs, err := t.goTest(ctx, root, []string{"./" + weakening.ChaptersDir + "/" + w.Chapter + "/"}, ov.JSON, nil, onEvent)
	if err != nil {
		return fmt.Errorf("try %s: %w", w.Name, err)
	}
	run, ok := runOf(runs, w.Chapter)
	if !ok {
		return fmt.Errorf("try %s: %w", w.Name, errors.New("the go command reported nothing for the chapter"))
	}
	r := evaluate(w, run, nil, ov.Copy)
	if !*verbose {
		if m := tryMessages(w, run); m != "" {
			fmt.Fprintf(out, "%s\n", m)
		}
		fmt.Fprintf(out, "(the full log: go run ./tools/drill try -v %s)\n", w.Name)
	}
	fmt.Fprintf(out, "\n%s\n", verdictLine(w, r))
	if r.Verdict != Caught {
		return errReported
	}
	return nil
}

// tryLines bounds the failure messages try shows without -v.
const tryLines = 22

// tryMessages returns what the failing tests said: each named test's
// message first, then the other failures', within tryLines lines.
func tryMessages(w *weakening.Weakening, run *testRun) string {
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
		m := run.messageOf(top)
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
func verdictLine(w *weakening.Weakening, r Result) string {
	switch r.Verdict {
	case Caught:
		s := fmt.Sprintf("caught: %s failed", strings.Join(w.Tests, ", "))
		if w.Expect != "" {
			s += fmt.Sprintf(" and the output matched /%s/", w.Expect)
		}
		if extra := without(r.FailedTests, w.Tests); len(extra) > 0 {
			s += fmt.Sprintf(" (also failed: %s)", strings.Join(extra, ", "))
		}
		return s + "."
	case Survived:
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

// livePrinter shows a go test -json stream as a learner wants it: one
// line per passing test, the whole output of a failing or skipped one as
// soon as its top-level test ends, compiler errors naming the real file.
type livePrinter struct {
	w        io.Writer
	copyPath string              // the overlay's weakened copy, as compiler errors name it
	target   string              // the file the learner knows it as
	output   map[string][]string // output lines so far, by full test name
	action   map[string]string   // pass, fail or skip, by full test name
	order    map[string][]string // the full names seen under each top-level test, in order
}

// newLivePrinter returns a livePrinter writing to w.
func newLivePrinter(w io.Writer, copyPath, target string) *livePrinter {
	return &livePrinter{w: w, copyPath: copyPath, target: target,
		output: map[string][]string{}, action: map[string]string{}, order: map[string][]string{}}
}

// event handles one event of the stream.
func (p *livePrinter) event(ev testEvent) {
	switch {
	case ev.Action == "build-output":
		fmt.Fprint(p.w, strings.ReplaceAll(ev.Output, p.copyPath, p.target))
		return
	case ev.Test == "":
		if ev.Action == "output" && !isNoise(ev.Output) {
			fmt.Fprint(p.w, ev.Output)
		}
		return
	}
	top, _, _ := strings.Cut(ev.Test, "/")
	if _, seen := p.output[ev.Test]; !seen {
		p.output[ev.Test] = nil
		p.order[top] = append(p.order[top], ev.Test)
	}
	switch ev.Action {
	case "output":
		if !isNoise(ev.Output) {
			p.output[ev.Test] = append(p.output[ev.Test], ev.Output)
		}
	case "pass", "fail", "skip":
		p.action[ev.Test] = ev.Action
		if ev.Test == top {
			p.flush(top)
		}
	}
}

// flush prints a finished top-level test: "ok NAME" if it passed, else
// the output of it and of each subtest that did not pass.
func (p *livePrinter) flush(top string) {
	if p.action[top] == "pass" {
		fmt.Fprintf(p.w, "ok    %s\n", top)
	} else {
		// Subtests first: the parent's own "--- FAIL" line closes the block.
		for _, name := range p.order[top][1:] {
			if p.action[name] == "pass" {
				fmt.Fprintf(p.w, "ok    %s\n", name)
				continue
			}
			fmt.Fprint(p.w, strings.Join(p.output[name], ""))
		}
		fmt.Fprint(p.w, strings.Join(p.output[top], ""))
	}
	for _, name := range p.order[top] {
		delete(p.output, name)
		delete(p.action, name)
	}
	delete(p.order, top)
}

// isNoise reports whether a line of test output only narrates scheduling
// (=== RUN, === PAUSE, === CONT) or is the bare PASS/FAIL the summary repeats.
func isNoise(line string) bool {
	s := strings.TrimSpace(line)
	return strings.HasPrefix(s, "=== ") || s == "PASS" || s == "FAIL"
}
