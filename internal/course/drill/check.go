package drill

// This file is the graded check: the chapters' baselines in one go test
// run, then every weakening in its own overlay run, in parallel, and the
// chapter tests that no weakening made fail.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Report is the graded check's outcome; its JSON form is what
// `drill check --json` prints.
type Report struct {
	Weakenings   []Result      `json:"weakenings"`
	NeverFailing []ChapterTest `json:"tests_never_failing"`
	Excused      []ChapterTest `json:"tests_excused"` // never failing, with a written reason
	Baselines    []Baseline    `json:"baselines"`
	// BaselineSeconds is the wall time of the baseline run (all chapters'
	// tests in one go test, plus go test -list beside it).
	BaselineSeconds float64 `json:"baseline_seconds"`
	// Shared is how many weakenings ran in the shared build (the rest were
	// built one by one), and SharedSeconds how long that build took.
	Shared        int      `json:"shared"`
	SharedSeconds float64  `json:"shared_seconds"`
	Problems      []string `json:"problems"` // catalog problems that are not one weakening's
	Seconds       float64  `json:"seconds"`
	OK            bool     `json:"ok"`
}

// ChapterTest names a top-level test of a chapter.
type ChapterTest struct {
	Chapter string `json:"chapter"`
	Test    string `json:"test"`
	Reason  string `json:"reason,omitempty"`
}

// Baseline is a chapter's tests run without any weakening.
type Baseline struct {
	Chapter string   `json:"chapter"`
	Passed  bool     `json:"passed"`
	Reason  string   `json:"reason,omitempty"`
	Tests   []string `json:"tests"`   // the chapter's top-level tests (go test -list)
	Seconds float64  `json:"seconds"` // how long the tests ran, as go test reports the package's time
}

// Progress receives the check's steps as they finish; either func may be
// nil. Check calls OnResult from one goroutine at a time.
type Progress struct {
	OnBaselines func(bs []Baseline, seconds float64)     // once, when the baseline run is done
	OnShared    func(shared, alone int, seconds float64) // once, when the shared build is done
	OnResult    func(Result)                             // as each weakening's verdict arrives
}

// Check grades chapters, read from the catalog of the module at t.Root
// (found from the working directory if empty). The baselines run
// first, in one go test run (which also warms the build cache, so a
// weakening rebuilds only the packages its overlay touches); then every
// weakening of a chapter whose baseline passed runs the whole chapter
// package under its overlay, at most t.jobs() at a time. An error means
// the go command could not be run; everything else is in the Report.
func (t *Tool) Check(ctx context.Context, chapters []*weakening.Chapter, p Progress) (*Report, error) {
	start := time.Now()
	root, err := t.root()
	if err != nil {
		return nil, err
	}
	rep := &Report{Weakenings: []Result{}, NeverFailing: []ChapterTest{}, Excused: []ChapterTest{}, Baselines: []Baseline{}, Problems: []string{}}
	if len(chapters) == 0 {
		rep.OK = true
		return rep, nil
	}
	baselineStart := time.Now()
	baselines, err := t.baselines(ctx, root, chapters)
	if err != nil {
		return nil, err
	}
	rep.BaselineSeconds = round(time.Since(baselineStart).Seconds())
	rep.Baselines = baselines
	if p.OnBaselines != nil {
		p.OnBaselines(baselines, rep.BaselineSeconds)
	}

	tally := &tally{rep: rep, failed: map[string]map[string]bool{}, onResult: p.OnResult}
	queue := tally.queue(chapters, baselines)
	sharedStart := time.Now()
	shared, err := t.buildShared(ctx, root, queue, func(note string) {
		if t.Stderr != nil {
			fmt.Fprintf(t.Stderr, "drill check: %s\n", note)
		}
	})
	if err != nil {
		return nil, err
	}
	defer shared.Close()
	rep.Shared, rep.SharedSeconds = len(shared.nums), round(time.Since(sharedStart).Seconds())
	if p.OnShared != nil {
		p.OnShared(rep.Shared, len(queue)-rep.Shared, rep.SharedSeconds)
	}
	runErr := t.gradeAll(ctx, root, queue, shared, tally.add)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if runErr != nil && len(rep.Weakenings) > 0 && allRunFailed(rep.Weakenings) {
		return nil, fmt.Errorf("check: %w", runErr)
	}
	for i, ch := range chapters {
		rep.neverFailing(ch, baselines[i], tally.failed[ch.Name])
	}
	rep.Seconds = round(time.Since(start).Seconds())
	rep.conclude()
	return rep, nil
}

// tally collects the verdicts as they arrive, from several goroutines.
type tally struct {
	mu       sync.Mutex
	rep      *Report
	failed   map[string]map[string]bool // chapter -> top-level tests some weakening failed
	onResult func(Result)
}

// add records one verdict and the tests it saw fail.
func (ta *tally) add(r Result) {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	ta.rep.Weakenings = append(ta.rep.Weakenings, r)
	if ta.failed[r.Chapter] == nil {
		ta.failed[r.Chapter] = map[string]bool{}
	}
	for _, name := range r.FailedTests {
		ta.failed[r.Chapter][name] = true
	}
	if ta.onResult != nil {
		ta.onResult(r)
	}
}

// queue returns the weakenings to run, longest chapter first: the last
// runs to finish are short ones, so the cores stay busy. A weakening that
// cannot run (its entry is malformed, its chapter's baseline fails) gets
// its verdict here instead.
func (ta *tally) queue(chapters []*weakening.Chapter, baselines []Baseline) []job {
	var queue []job
	for i, ch := range chapters {
		base := baselines[i]
		for _, b := range ch.Broken {
			ta.add(Result{Chapter: ch.Name, Name: b.Name, FailedTests: []string{}, Tests: []string{}}.
				invalid(Malformed, "malformed catalog entry: "+b.Err.Error()))
		}
		for _, w := range ch.Weakenings {
			if !base.Passed {
				ta.add(Result{Chapter: ch.Name, Name: w.Name, FailedTests: []string{}, Tests: w.Tests}.
					invalid(BaselineFailing, "baseline failing: "+base.Reason))
				continue
			}
			queue = append(queue, job{w: w, listed: base.Tests, cost: base.Seconds})
		}
	}
	sort.SliceStable(queue, func(i, j int) bool { return queue[i].cost > queue[j].cost })
	return queue
}

// gradeAll grades the queued weakenings, at most t.jobs() at a time, and
// hands each verdict to add. A weakening in the shared build runs its
// chapter's binary with its switch on; any other is built on its own. A weakening whose go command could not run is
// an invalid verdict; the errors are joined into the result.
func (t *Tool) gradeAll(ctx context.Context, root string, queue []job, shared *sharedBuild, add func(Result)) error {
	var (
		mu     sync.Mutex
		runErr error
		wg     sync.WaitGroup
	)
	jobs := make(chan job)
	for range min(t.jobs(), max(len(queue), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				var r Result
				var err error
				if num, bin, ok := shared.switched(j.w); ok {
					r, err = t.gradeSwitched(ctx, root, j.w, num, bin, j.listed)
				} else {
					r, err = t.grade(ctx, root, j.w, j.listed)
				}
				if err != nil {
					mu.Lock()
					runErr = errors.Join(runErr, err)
					mu.Unlock()
					r = Result{Chapter: j.w.Chapter, Name: j.w.Name, FailedTests: []string{}, Tests: j.w.Tests}.invalid(RunFailed, err.Error())
				}
				add(r)
			}
		}()
	}
feed:
	for _, j := range queue {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return runErr
}

// conclude sorts the verdicts by chapter and name and decides OK: every
// baseline passed, every weakening caught, no test never failing, no
// problem.
func (rep *Report) conclude() {
	sort.Slice(rep.Weakenings, func(i, j int) bool {
		a, b := rep.Weakenings[i], rep.Weakenings[j]
		if a.Chapter != b.Chapter {
			return a.Chapter < b.Chapter
		}
		return a.Name < b.Name
	})
	rep.OK = len(rep.NeverFailing) == 0 && len(rep.Problems) == 0
	for _, b := range rep.Baselines {
		rep.OK = rep.OK && b.Passed
	}
	for _, r := range rep.Weakenings {
		rep.OK = rep.OK && r.Verdict == Caught
	}
}

// job is one weakening waiting to be graded.
type job struct {
	w      *weakening.Weakening
	listed []string // its chapter's top-level tests
	cost   float64  // how long its chapter's baseline tests ran, in seconds: the estimate to schedule by
}

// allRunFailed reports whether no weakening could be run at all.
func allRunFailed(rs []Result) bool {
	for _, r := range rs {
		if r.Problem != RunFailed {
			return false
		}
	}
	return true
}

// baselines runs every chapter's tests without a weakening, and lists
// their top-level tests, in two go commands running side by side.
func (t *Tool) baselines(ctx context.Context, root string, chapters []*weakening.Chapter) ([]Baseline, error) {
	pkgs := make([]string, len(chapters))
	for i, ch := range chapters {
		pkgs[i] = ch.Package()
	}
	var runs, lists map[string]*testRun
	var runErr, listErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); runs, runErr = t.goTest(ctx, root, pkgs, "", nil, nil) }()
	go func() { defer wg.Done(); lists, listErr = t.goTest(ctx, root, pkgs, "", []string{"-list", "."}, nil) }()
	wg.Wait()
	if err := errors.Join(runErr, listErr); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	out := make([]Baseline, len(chapters))
	for i, ch := range chapters {
		b := Baseline{Chapter: ch.Name, Tests: []string{}}
		run, ok := runOf(runs, ch.Name)
		list, listed := runOf(lists, ch.Name)
		if listed && !list.BuildFailed {
			b.Tests = list.listed()
		}
		switch {
		case !ok:
			b.Reason = "the go command reported nothing for " + ch.Package()
		case run.BuildFailed:
			b.Reason = "the chapter does not build without any weakening: " + firstLines(run.BuildOutput, 3)
		case run.TimedOut:
			b.Reason = "the chapter's tests time out without any weakening"
		case len(run.failedTopLevel()) > 0:
			b.Reason = strings.Join(run.failedTopLevel(), ", ") + " failed without any weakening"
		case run.Action == "fail":
			b.Reason = "the chapter's tests fail without any weakening: " + firstLines(run.Output, 3)
		default:
			b.Passed = true
			b.Seconds = round(run.Elapsed)
		}
		out[i] = b
	}
	return out, nil
}

// grade runs the tests w names, in chapter w.Chapter's package under w's
// overlay, and evaluates the run. The overlay lives in a scratch directory removed
// afterwards; the working tree is never written.
func (t *Tool) grade(ctx context.Context, root string, w *weakening.Weakening, listed []string) (Result, error) {
	r := Result{Chapter: w.Chapter, Name: w.Name, FailedTests: []string{}, Tests: w.Tests}
	dir, err := os.MkdirTemp("", "drill-"+w.Name+"-")
	if err != nil {
		return r, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	defer os.RemoveAll(dir)
	ov, err := w.WriteOverlay(root, dir)
	if err != nil {
		if p, reason, ok := overlayProblem(w, err); ok {
			return r.invalid(p, reason), nil
		}
		return r, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	runs, err := t.goTest(ctx, root, []string{"./" + weakening.ChaptersDir + "/" + w.Chapter + "/"}, ov.JSON, []string{"-run", namedTests(w)}, nil)
	if err != nil {
		return r, fmt.Errorf("grade %s: %w", w.Name, err)
	}
	run, ok := runOf(runs, w.Chapter)
	if !ok {
		return r.invalid(RunFailed, "the go command reported nothing for chapter "+w.Chapter), nil
	}
	return evaluate(w, run, listed, ov.Copy), nil
}

// overlayProblem maps an error from WriteOverlay that is the weakening's
// fault (its file is gone, its before-text does not match) to a Problem
// and a reason; ok is false for any other error.
func overlayProblem(w *weakening.Weakening, err error) (p Problem, reason string, ok bool) {
	var m *weakening.MatchError
	switch {
	case errors.As(err, &m) && errors.Is(err, weakening.ErrBeforeNotFound):
		return BeforeNotFound, m.Error(), true
	case errors.As(err, &m):
		return BeforeAmbiguous, m.Error(), true
	case errors.Is(err, fs.ErrNotExist):
		return FileNotFound, "file not found: " + w.File, true
	}
	return None, "", false
}

// neverFailing adds the chapter's top-level tests that no weakening made
// fail to rep: excused ones (with their reason) to Excused, the rest to
// NeverFailing. A chapter whose baseline failed is skipped (its weakenings
// are all invalid already). An excuse naming no test of the chapter is a
// problem: the excuse file has drifted from the tests.
func (rep *Report) neverFailing(ch *weakening.Chapter, base Baseline, failed map[string]bool) {
	if ch.ExcuseErr != nil {
		rep.Problems = append(rep.Problems, ch.ExcuseErr.Error())
	}
	if !base.Passed {
		return
	}
	for _, test := range base.Tests {
		if failed[test] {
			continue
		}
		if reason, ok := ch.Excused[test]; ok {
			rep.Excused = append(rep.Excused, ChapterTest{Chapter: ch.Name, Test: test, Reason: reason})
			continue
		}
		rep.NeverFailing = append(rep.NeverFailing, ChapterTest{Chapter: ch.Name, Test: test})
	}
	var stale []string
	for test := range ch.Excused {
		if !slices.Contains(base.Tests, test) {
			stale = append(stale, test)
		}
	}
	sort.Strings(stale)
	for _, test := range stale {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s/%s/%s excuses %s, which is not a test of the chapter",
			weakening.ChaptersDir, ch.Name, weakening.Dir+"/"+weakening.ExcuseFile, test))
	}
}

// namedTests is the -run pattern for the top-level tests w names. A
// weakening is graded by the tests it names: the catalog says which test
// guards against which mistake, and a chapter test no weakening names
// counts as never failing. Running only those tests leaves the slow
// scripts out of every weakening that does not name them.
func namedTests(w *weakening.Weakening) string {
	var tops []string
	for _, name := range w.Tests {
		top, _, _ := strings.Cut(name, "/")
		if !slices.Contains(tops, top) {
			tops = append(tops, regexp.QuoteMeta(top))
		}
	}
	return "^(" + strings.Join(tops, "|") + ")$"
}
