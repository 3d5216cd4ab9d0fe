package exercise

// This file runs what grading needs: a chapter's tests, through the
// course's one runner of variants (package variant), and a weakening
// graded by the graded check's own rules (package check).

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/fencelab/fencelab/internal/course/check"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Request is one go test run of a chapter.
type Request struct {
	Chapter string // the chapter folder's name
	// Overlay replaces files of the module for this run; nil for none.
	Overlay variant.Overlay
	// Tests are the top-level tests to run; all of the chapter's if empty.
	Tests []string
}

// Outcome is what a run did.
type Outcome struct {
	// Passed is true when the package built and every test that ran passed.
	Passed bool
	// BuildFailed is true when the chapter did not compile; Message holds
	// the compiler's first lines.
	BuildFailed bool
	// Failed are the top-level tests that failed, in the order they failed.
	Failed []string
	// Message is the first failure in the failing test's own words, a few
	// lines long: what a learner reads first.
	Message string
	// Output is the output of every failed test, for matching an expect
	// pattern against.
	Output string
	// Log is everything the run printed, for -v.
	Log string
}

// Graded is a weakening graded against the working tree as the learner
// left it.
type Graded struct {
	// Applies is false when the weakening's edit cannot be made to the
	// learner's code (its before-text is not there) or the result does
	// not build: it says nothing about the learner's code then.
	Applies bool
	// Caught is true when its tests still fail with it applied.
	Caught bool
	// Reason says why it was not caught, or why it does not apply.
	Reason string
}

// runChapter runs one chapter's tests as req asks.
func runChapter(ctx context.Context, r *variant.Runner, req Request) (*Outcome, error) {
	g := variant.GoTest{Packages: []string{"./" + weakening.ChaptersDir + "/" + req.Chapter + "/"}, Overlay: req.Overlay}
	if len(req.Tests) > 0 {
		g.Flags = []string{"-run", variant.RunPattern(req.Tests)}
	}
	// Compiler messages name the overlay's copies; the learner knows the
	// files by their own names.
	names := req.Overlay.Renamer(r.Root)
	var log strings.Builder
	g.OnEvent = variant.NewLivePrinter(&log, names).Event
	runs, err := r.GoTest(ctx, g)
	if err != nil {
		return nil, err
	}
	run, ok := variant.RunOf(runs, req.Chapter)
	if !ok {
		return nil, errors.New("the go command reported nothing for chapter " + req.Chapter)
	}
	out := outcomeOf(run, names, log.String(), r)
	if out.Passed {
		notRun(r.Root, req.Chapter, req.Tests, run, out)
	}
	return out, nil
}

// runChapters runs the tests of several chapters in one go command (it
// builds them in parallel) and returns each chapter's outcome.
func runChapters(ctx context.Context, r *variant.Runner, chapters []string, overlay variant.Overlay) (map[string]*Outcome, error) {
	g := variant.GoTest{Overlay: overlay}
	for _, ch := range chapters {
		g.Packages = append(g.Packages, "./"+weakening.ChaptersDir+"/"+ch+"/")
	}
	var log strings.Builder
	names := overlay.Renamer(r.Root)
	g.OnEvent = variant.NewLivePrinter(&log, names).Event
	runs, err := r.GoTest(ctx, g)
	if err != nil {
		return nil, err
	}
	out := map[string]*Outcome{}
	for _, ch := range chapters {
		run, ok := variant.RunOf(runs, ch)
		if !ok || run.Package == "" {
			return nil, errors.New("the go command reported nothing for chapter " + ch)
		}
		out[ch] = outcomeOf(run, names, "", r)
		if out[ch].Passed {
			notRun(r.Root, ch, nil, run, out[ch])
		}
	}
	if len(chapters) > 0 {
		out[chapters[0]].Log = log.String()
	}
	return out, nil
}

// notRun fails a passing outcome if a top-level test the chapter declares
// (of only, if not empty) did not run: a package passes when its test
// binary exits 0, and code that exits before the tests start (an init
// that calls os.Exit(0)) must not read as green.
func notRun(root, chapter string, only []string, run *variant.PackageRun, out *Outcome) {
	declared, err := declaredTests(root, chapter)
	if err != nil {
		return // the compiler read the same files; nothing to add
	}
	var missing []string
	for _, name := range declared {
		if len(only) > 0 && !slices.Contains(only, name) {
			continue
		}
		if t, ok := run.Tests[name]; !ok || (t.Action != "pass" && t.Action != "skip") {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return
	}
	out.Passed = false
	out.Failed = missing
	out.Message = fmt.Sprintf("the test binary exited without running %s: something ends it before its tests (an init that calls os.Exit?)",
		fewFiles(missing))
}

// declaredTests returns the top-level tests chapter's test files declare.
func declaredTests(root, chapter string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(root, weakening.ChaptersDir, chapter, "*_test.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	fset := token.NewFileSet()
	for _, p := range paths {
		if ok, err := build.Default.MatchFile(filepath.Dir(p), filepath.Base(p)); err != nil || !ok {
			continue // not built here (its build constraints exclude it)
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv == nil && isTestName(fn.Name.Name) && fn.Type.Params.NumFields() == 1 {
				out = append(out, fn.Name.Name)
			}
		}
	}
	return out, nil
}

// isTestName reports whether name is a test's name: Test, then nothing
// or a character that is not a lower-case letter.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	return ok && name != "TestMain" && (rest == "" || !unicode.IsLower(rune(rest[0])))
}

// outcomeOf reads one chapter's run.
func outcomeOf(run *variant.PackageRun, names *strings.Replacer, log string, r *variant.Runner) *Outcome {
	out := &Outcome{Log: log}
	switch {
	case run.BuildFailed:
		out.BuildFailed = true
		out.Message = names.Replace(variant.FirstLines(run.BuildOutput, 10, "\n"))
	case run.TimedOut:
		out.Message = "the tests did not finish within the -timeout " + r.TestTimeout().String()
		if running := run.Running(); len(running) > 0 {
			out.Message += " (still running: " + strings.Join(running, ", ") + ")"
		}
	default:
		out.Passed = run.Action == "pass"
		out.Message = run.FirstFailure()
		if out.Message == "" && !out.Passed {
			out.Message = variant.FirstLines(run.Output, 5, "; ")
		}
	}
	var failed strings.Builder
	for _, n := range run.FailOrder {
		if !strings.Contains(n, "/") {
			out.Failed = append(out.Failed, n)
		}
		failed.WriteString(run.Tests[n].Output.String())
	}
	out.Output = failed.String()
	return out
}

// gradeWeakenings grades every weakening of ws in one shared build (a
// build each would cost a link of the chapter per weakening) and sets
// each one's grading.
func gradeWeakenings(ctx context.Context, r *variant.Runner, ws []*weakeningRef) error {
	if len(ws) == 0 {
		return nil
	}
	list := make([]*weakening.Weakening, len(ws))
	for i, ref := range ws {
		list[i] = ref.w
	}
	results, err := check.GradeEach(ctx, r, list, nil)
	if err != nil {
		return err
	}
	for i, res := range results {
		if ws[i].g, err = graded(ws[i].w, res); err != nil {
			return err
		}
	}
	return nil
}

// graded reads a check result as an exercise's grading of w, by the
// graded check's rules. A failure whose output does not match the
// catalog's pattern still counts as caught: the pattern was written for
// the shipped code's messages, not the learner's.
func graded(w *weakening.Weakening, res check.Result) (Graded, error) {
	switch {
	case res.Verdict == check.Caught || res.Problem == check.PatternNotMatched:
		return Graded{Applies: true, Caught: true}, nil
	case res.Verdict == check.Survived:
		return Graded{Applies: true, Reason: res.Reason}, nil
	case res.Problem == check.RunFailed:
		return Graded{}, fmt.Errorf("grade %s: %s", w.Name, res.Reason)
	}
	return Graded{Reason: res.Reason}, nil
}
