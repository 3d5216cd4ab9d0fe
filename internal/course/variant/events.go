package variant

// This file reads the stream of events `go test -json` and test2json print
// and folds it into what each package, and each test in it, did.

import (
	"bufio"
	"encoding/json"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Event is one line of `go test -json` (cmd/test2json), with the build
// events the go command adds.
type Event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string  // set on build-output and build-fail events
	FailedBuild string  // set on a package's fail event when its build failed
	Elapsed     float64 // seconds, on pass and fail events
}

// Test is what one test (top-level or subtest) did.
type Test struct {
	Name   string
	Action string // "pass", "fail", "skip", or "" if it started but never finished
	Output strings.Builder
}

// PackageRun is what one package did in one run.
type PackageRun struct {
	Package     string           // import path
	Action      string           // the package's own pass, fail or skip; "" if none came
	Tests       map[string]*Test // by full name, subtests included
	BuildFailed bool
	BuildOutput string // the compiler's messages, or the go command's error
	Output      string // package-level output (not attributed to a test)
	TimedOut    bool
	// FailOrder holds the tests (top-level and subtests) in the order
	// their failures were reported: the first is what a learner reads first.
	FailOrder []string
	Seconds   float64 // wall time of the whole command
	Elapsed   float64 // how long the package's test binary ran, as go test reports it
}

// Passed reports whether the package built and every test that ran passed.
func (run *PackageRun) Passed() bool {
	return !run.BuildFailed && !run.TimedOut && run.Action == "pass"
}

// timedOut is what a test binary prints when -timeout fires.
var timedOut = regexp.MustCompile(`(?m)^panic: test timed out after `)

// topLevelTest is a line of `go test -list` output that names a test
// (rather than the package summary).
var topLevelTest = regexp.MustCompile(`^(Test|Example|Fuzz)[A-Za-z0-9_]*$`)

// readEvents reads the events on r, hands each to onEvent if it is not
// nil, and folds them into per-package runs. A line that is not an event
// counts as output outside any package.
func readEvents(r io.Reader, onEvent func(Event)) *parser {
	p := &parser{runs: map[string]*PackageRun{}, build: map[string]*strings.Builder{}, out: map[string]*strings.Builder{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.Action == "" {
			ev = Event{Action: "output", Output: sc.Text() + "\n"}
		}
		p.record(ev)
		if onEvent != nil {
			onEvent(ev)
		}
	}
	return p
}

// parser folds events into PackageRuns.
type parser struct {
	runs  map[string]*PackageRun
	build map[string]*strings.Builder // compiler output by the import path it names
	all   strings.Builder             // every build-output line, and output outside any package
	out   map[string]*strings.Builder // package-level output by package
}

// run returns the PackageRun for pkg, creating it.
func (p *parser) run(pkg string) *PackageRun {
	r := p.runs[pkg]
	if r == nil {
		r = &PackageRun{Package: pkg, Tests: map[string]*Test{}}
		p.runs[pkg] = r
	}
	return r
}

// record folds one event in.
func (p *parser) record(ev Event) {
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
		// Output printed outside any package.
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
			tr = &Test{Name: ev.Test}
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

// finish completes the runs once the command has exited; stderr is what
// it printed there.
func (p *parser) finish(stderr string) map[string]*PackageRun {
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

// Listed returns the top-level tests a `go test -list .` run printed.
func (run *PackageRun) Listed() []string {
	var tests []string
	for _, line := range strings.Split(run.Output, "\n") {
		if topLevelTest.MatchString(line) {
			tests = append(tests, line)
		}
	}
	return tests
}

// FailedTopLevel returns the top-level tests that failed, sorted.
func (run *PackageRun) FailedTopLevel() []string {
	failed := []string{}
	for name, r := range run.Tests {
		if r.Action == "fail" && !strings.Contains(name, "/") {
			failed = append(failed, name)
		}
	}
	sort.Strings(failed)
	return failed
}

// OutputOf returns the output of test name and all its subtests, in name
// order.
func (run *PackageRun) OutputOf(name string) string {
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

// Running returns the top-level tests that started but never finished
// (what a timeout interrupted), sorted.
func (run *PackageRun) Running() []string {
	var names []string
	for name, r := range run.Tests {
		if r.Action == "" && !strings.Contains(name, "/") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// FirstLines returns the first n non-blank lines of s that are not the go
// command's "# package" headers, joined by sep. Joined on one line (a sep
// without a newline) each line loses its indentation; joined by newlines
// it keeps it, since a compiler's "have ... want ..." lines read by it.
func FirstLines(s string, n int, sep string) string {
	oneLine := !strings.Contains(sep, "\n")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "# ") {
			if oneLine {
				l = strings.TrimSpace(l)
			}
			lines = append(lines, strings.TrimRight(l, " \t\r"))
			if len(lines) == n {
				break
			}
		}
	}
	return strings.Join(lines, sep)
}
