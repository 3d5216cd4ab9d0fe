package variant

// This file shows a run's events to a person as they arrive: what drill
// try -v prints, and the log behind an exercise's grading.

import (
	"fmt"
	"io"
	"strings"
)

// LivePrinter shows a test2json stream as a learner wants it: one line
// per passing test, the whole output of a failing or skipped one as soon
// as its top-level test ends, compiler errors naming the real files.
type LivePrinter struct {
	w      io.Writer
	rename *strings.Replacer
	output map[string][]string // output lines so far, by full test name
	action map[string]string   // pass, fail or skip, by full test name
	order  map[string][]string // the full names seen under each top-level test, in order
}

// NewLivePrinter returns a LivePrinter writing to w; rename (nil for none)
// rewrites compiler messages, as Overlay.Renamer gives it.
func NewLivePrinter(w io.Writer, rename *strings.Replacer) *LivePrinter {
	if rename == nil {
		rename = strings.NewReplacer()
	}
	return &LivePrinter{w: w, rename: rename,
		output: map[string][]string{}, action: map[string]string{}, order: map[string][]string{}}
}

// Event handles one event of the stream; pass it as a run's onEvent.
func (p *LivePrinter) Event(ev Event) {
	switch {
	case ev.Action == "build-output":
		fmt.Fprint(p.w, p.rename.Replace(ev.Output))
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
func (p *LivePrinter) flush(top string) {
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
