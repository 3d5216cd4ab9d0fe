package drill

// This file runs the go command: `go test -json` over chapter packages,
// optionally through an overlay, read into per-package, per-test results.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"time"
)

// testEvent is one line of `go test -json` (cmd/test2json), with the
// build events the go command adds.
type testEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string  // set on build-output and build-fail events
	FailedBuild string  // set on a package's fail event when its build failed
	Elapsed     float64 // seconds, on pass and fail events
}

// testResult is what one test (top-level or subtest) did.
type testResult struct {
	Name   string
	Action string // "pass", "fail", "skip", or "" if it started but never finished
	Output strings.Builder
}

// testRun is what one package did in a `go test -json` run.
type testRun struct {
	Package     string                 // import path
	Action      string                 // the package's own pass, fail or skip; "" if none came
	Tests       map[string]*testResult // by full name, subtests included
	BuildFailed bool
	BuildOutput string // the compiler's messages, or the go command's error
	Output      string // package-level output (not attributed to a test)
	TimedOut    bool
	// FailOrder holds the tests (top-level and subtests) in the order
	// their failures were reported: the first is what a learner reads first.
	FailOrder []string
	Seconds   float64 // wall time of the whole go command
	Elapsed   float64 // how long the package's test binary ran, as go test reports it
}

// timedOut is what a test binary prints when -timeout fires.
var timedOut = regexp.MustCompile(`(?m)^panic: test timed out after `)

// topLevelTest is a line of `go test -list` output that names a test
// (rather than the package summary).
var topLevelTest = regexp.MustCompile(`^(Test|Example|Fuzz)[A-Za-z0-9_]*$`)

// goTest runs `go test -json -count=1 -vet=off -timeout T` on pkgs
// (patterns relative to the module root), through the overlay file if it
// is not "", with extra flags before the packages. Vet is off because a
// weakening is not graded on it and it would rerun for every rebuilt
// package. onEvent, if not nil, sees every event as it arrives.
//
// The result maps each package's import path to what it did. An error
// means the go command could not be run at all; a failed build or failing
// tests are described by the testRuns. If the go command failed before
// naming any package (a bad overlay, a pattern that matches nothing), the
// result has one entry under the key "" with BuildFailed set.
func (t *Tool) goTest(ctx context.Context, root string, pkgs []string, overlay string, extra []string, onEvent func(testEvent)) (map[string]*testRun, error) {
	args := []string{"test", "-json", "-count=1", "-vet=off", "-timeout", t.timeout().String()}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, extra...)
	args = append(args, pkgs...)
	return t.runEvents(ctx, root, args, nil, "go test "+strings.Join(pkgs, " "), onEvent)
}

// command returns the go command with args, to run in dir with t.Env added
// to its environment.
func (t *Tool) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, t.goCmd(), args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), t.Env...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runEvents runs the go command with args in dir, its environment
// extended by env, reads the test2json events it prints, and folds them
// into per-package results (see goTest). what names the run in errors.
func (t *Tool) runEvents(ctx context.Context, dir string, args, env []string, what string, onEvent func(testEvent)) (map[string]*testRun, error) {
	// The test binary enforces -timeout itself; this deadline is a backstop
	// for a go command that hangs while building.
	ctx, cancel := context.WithTimeout(ctx, t.timeout()+10*time.Minute)
	defer cancel()
	cmd := t.command(ctx, dir, args...)
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}

	p := &parser{runs: map[string]*testRun{}, build: map[string]*strings.Builder{}, out: map[string]*strings.Builder{}}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var ev testEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.Action == "" {
			ev = testEvent{Action: "output", Output: sc.Text() + "\n"}
		}
		p.record(ev)
		if onEvent != nil {
			onEvent(ev)
		}
	}
	waitErr := cmd.Wait()
	seconds := time.Since(start).Seconds()

	var exit *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exit) && ctx.Err() == nil {
		return nil, fmt.Errorf("%s: %w", what, waitErr)
	}
	runs := p.finish(strings.TrimSpace(stderr.String()))
	for _, run := range runs {
		run.Seconds = seconds
		if ctx.Err() != nil {
			run.TimedOut = true
		}
	}
	if waitErr != nil && len(runs) == 0 {
		runs[""] = &testRun{Tests: map[string]*testResult{}, BuildFailed: true,
			BuildOutput: strings.TrimSpace(stderr.String()), Seconds: seconds, TimedOut: ctx.Err() != nil}
	}
	return runs, nil
}

// parser folds `go test -json` events into testRuns.
type parser struct {
	runs  map[string]*testRun
	build map[string]*strings.Builder // compiler output by the import path it names
	all   strings.Builder             // every build-output line
	out   map[string]*strings.Builder // package-level output by package
}

// run returns the testRun for pkg, creating it.
func (p *parser) run(pkg string) *testRun {
	r := p.runs[pkg]
	if r == nil {
		r = &testRun{Package: pkg, Tests: map[string]*testResult{}}
		p.runs[pkg] = r
	}
	return r
}

// record folds one event in.
func (p *parser) record(ev testEvent) {
	switch {
	case ev.Action == "build-output":
		b := p.build[ev.ImportPath]
		if b == nil {
			b = &strings.Builder{}
			p.build[ev.ImportPath] = b
		}
		b.WriteString(ev.Output)
		p.all.WriteString(ev.Output)
	case ev.Action == "build-fail":
		// The package whose test build this breaks reports FailedBuild.
	case ev.Package == "":
		// Output the go command printed outside any package.
		p.all.WriteString(ev.Output)
	case ev.Test == "":
		r := p.run(ev.Package)
		switch ev.Action {
		case "output":
			o := p.out[ev.Package]
			if o == nil {
				o = &strings.Builder{}
				p.out[ev.Package] = o
			}
			o.WriteString(ev.Output)
		case "pass", "fail", "skip":
			r.Action = ev.Action
			r.Elapsed = ev.Elapsed
		}
		if ev.FailedBuild != "" {
			r.BuildFailed = true
			if b := p.build[ev.FailedBuild]; b != nil {
				r.BuildOutput = b.String()
			}
		}
	default:
		r := p.run(ev.Package)
		tr := r.Tests[ev.Test]
		if tr == nil {
			tr = &testResult{Name: ev.Test}
			r.Tests[ev.Test] = tr
		}
		switch ev.Action {
		case "output":
			tr.Output.WriteString(ev.Output)
		case "pass", "fail", "skip":
			tr.Action = ev.Action
		}
		if ev.Action == "fail" {
			r.FailOrder = append(r.FailOrder, ev.Test)
		}
	}
}

// finish completes the runs once the go command has exited; stderr is
// what it printed there.
func (p *parser) finish(stderr string) map[string]*testRun {
	for pkg, r := range p.runs {
		if o := p.out[pkg]; o != nil {
			r.Output = o.String()
		}
		if r.BuildFailed && r.BuildOutput == "" {
			r.BuildOutput = p.all.String() + stderr
		}
		if timedOut.MatchString(r.Output) {
			r.TimedOut = true
		}
		for _, tr := range r.Tests {
			if timedOut.MatchString(tr.Output.String()) {
				r.TimedOut = true
			}
		}
	}
	return p.runs
}

// runOf returns the run of the chapter folder called chapter: the package
// whose import path ends in /chapters/<chapter>. It falls back to the
// entry under "" (a go command that failed before naming a package).
func runOf(runs map[string]*testRun, chapter string) (*testRun, bool) {
	for pkg, r := range runs {
		if pkg != "" && strings.HasSuffix(pkg, "/chapters/"+chapter) {
			return r, true
		}
	}
	r, ok := runs[""]
	return r, ok
}

// listed returns the top-level tests a `go test -list .` run printed.
func (run *testRun) listed() []string {
	var tests []string
	for _, line := range strings.Split(run.Output, "\n") {
		if topLevelTest.MatchString(line) {
			tests = append(tests, line)
		}
	}
	return tests
}

// failedTopLevel returns the top-level tests that failed, sorted.
func (run *testRun) failedTopLevel() []string {
	failed := []string{}
	for name, r := range run.Tests {
		if r.Action == "fail" && !strings.Contains(name, "/") {
			failed = append(failed, name)
		}
	}
	sort.Strings(failed)
	return failed
}

// outputOf returns the output of test name and all its subtests, in name
// order.
func (run *testRun) outputOf(name string) string {
	var names []string
	for n := range run.Tests {
		if n == name || strings.HasPrefix(n, name+"/") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(run.Tests[n].Output.String())
	}
	return b.String()
}

// running returns the top-level tests that started but never finished
// (what a timeout interrupted), sorted.
func (run *testRun) running() []string {
	var names []string
	for name, r := range run.Tests {
		if r.Action == "" && !strings.Contains(name, "/") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// firstLines returns the first n non-blank lines of s that are not the
// go command's "# package" headers, joined by "; ".
func firstLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			lines = append(lines, l)
			if len(lines) == n {
				break
			}
		}
	}
	return strings.Join(lines, "; ")
}
