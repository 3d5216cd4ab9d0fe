package check

// This file is the graded check as a whole: the chapters' baselines, then
// every weakening graded in the Runner's pool, then the chapter tests that
// no weakening made fail.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Report is the graded check's outcome; its JSON form is what
// `drill check --json` prints.
type Report struct {
	Weakenings   []Result      `json:"weakenings"`
	NeverFailing []ChapterTest `json:"tests_never_failing"`
	// Learner are tests a learner wrote (in LearnerFiles): their work,
	// which the check leaves out; drill grade grades them.
	Learner   []ChapterTest `json:"learner_tests,omitempty"`
	Excused   []ChapterTest `json:"tests_excused"` // never failing, with a written reason
	Baselines []Baseline    `json:"baselines"`
	// BaselineSeconds is the wall time of the baseline run (all chapters'
	// tests in one go test, plus go test -list beside it).
	BaselineSeconds float64 `json:"baseline_seconds"`
	// Shared is how many weakenings ran in the shared build (the rest were
	// built one by one), and SharedSeconds how long that build took.
	Shared        int      `json:"shared"`
	SharedSeconds float64  `json:"shared_seconds"`
	Problems      []string `json:"problems"` // catalog problems that are not one weakening's
	// Reused is how many verdicts were reused from the stored ones, and
	// Sample what was judged again of them (absent if nothing was).
	Reused  int           `json:"reused"`
	Sample  *SampleReport `json:"sample,omitempty"`
	Seconds float64       `json:"seconds"`
	OK      bool          `json:"ok"`
}

// ChapterTest names a top-level test of a chapter.
type ChapterTest struct {
	Chapter string `json:"chapter"`
	Test    string `json:"test"`
	Reason  string `json:"reason,omitempty"`
	// FailsUnder (a test never failing) names the weakenings of its
	// chapter it does fail under when run: its name belongs on one of
	// their tests: lines.
	FailsUnder []string `json:"fails_under,omitempty"`
}

// Baseline is a chapter's tests run without any weakening.
type Baseline struct {
	Chapter string   `json:"chapter"`
	Passed  bool     `json:"passed"`
	Reason  string   `json:"reason,omitempty"`
	Tests   []string `json:"tests"`   // the chapter's top-level tests (go test -list)
	Seconds float64  `json:"seconds"` // how long the tests ran, as go test reports the package's time
	// Reused: the chapter's key held, so its tests, which passed when the
	// key was stored, did not run again; Tests is the stored list.
	Reused bool `json:"reused,omitempty"`
}

// Progress receives the check's steps as they finish; either func may be
// nil. Check calls OnResult from one goroutine at a time.
type Progress struct {
	OnBaselines func(bs []Baseline, seconds float64)     // once, when the baseline run is done
	OnShared    func(shared, alone int, seconds float64) // once, when the shared build is done
	OnResult    func(Result)                             // as each weakening's verdict arrives
	// OnReused, once, before anything runs: how many stored verdicts are
	// reused, and the sample judged again (nil if none).
	OnReused func(reused int, sample *SampleReport)
	// Note, if not nil, hears what is worth a line but decides nothing
	// (the shared build failed and each weakening is built on its own).
	Note func(string)
}

// Options tune a check.
type Options struct {
	Progress Progress
	// Stored, if not nil, reuses the stored verdicts as it says (and
	// writes them, with Update); nil neither reads nor writes them.
	Stored *Reuse
}

func (p Progress) note(s string) {
	if p.Note != nil {
		p.Note(s)
	}
}

// Check grades chapters with r. The baselines run first, in one go test
// run (which also warms the build cache, so a weakening rebuilds only the
// packages its overlay touches); then every weakening of a chapter whose
// baseline passed is graded, in r's pool. An error means the go command
// could not be run or ctx was cancelled; everything else is in the Report.
//
// With opts.Stored set, the verdicts stored for the chapters (carry.go)
// are reused where their keys hold, and so is the baseline of a chapter
// whose key holds (its tests are as they were when it passed); with
// Update, every chapter's file is written afterwards. Without it nothing
// is read or written.
func Check(ctx context.Context, r *variant.Runner, chapters []*weakening.Chapter, opts Options) (*Report, error) {
	start := time.Now()
	p := opts.Progress
	rep := &Report{Weakenings: []Result{}, NeverFailing: []ChapterTest{}, Excused: []ChapterTest{}, Baselines: []Baseline{}, Problems: []string{}}
	if len(chapters) == 0 {
		rep.OK = true
		return rep, nil
	}
	tally := &tally{rep: rep, failed: map[string]map[string]bool{}, onResult: p.OnResult}
	var c *carried
	if opts.Stored != nil {
		var err error
		if c, err = carry(r.Root, chapters, *opts.Stored); err != nil {
			return nil, err
		}
		for _, res := range c.reused {
			tally.remember(res)
		}
		rep.Reused, rep.Sample = len(c.reused), c.sample
		if p.OnReused != nil {
			p.OnReused(rep.Reused, c.sample)
		}
	}
	baselines, err := baselinesOf(ctx, r, chapters, c, rep, p)
	if err != nil {
		return nil, err
	}
	queue := tally.queue(chapters, baselines, c)
	sharedStart := time.Now()
	shared, err := buildShared(ctx, r, queue, p.note)
	if err != nil {
		return nil, err
	}
	rep.Shared, rep.SharedSeconds = len(shared.nums), round(time.Since(sharedStart).Seconds())
	if p.OnShared != nil {
		p.OnShared(rep.Shared, len(queue)-rep.Shared, rep.SharedSeconds)
	}
	runErr := gradeAll(ctx, r, queue, shared, tally.add)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if runErr != nil && len(rep.Weakenings) > 0 && allRunFailed(rep.Weakenings) {
		return nil, fmt.Errorf("check: %w", runErr)
	}
	for i, ch := range chapters {
		learner, err := learnerTests(r.Root, ch.Name)
		if err != nil {
			return nil, err
		}
		rep.neverFailing(ch, baselines[i], tally.failed[ch.Name], learner)
		rep.unnamedInText(r.Root, ch)
	}
	suggestWeakenings(ctx, r, queue, shared, rep)
	if c != nil {
		c.checkSample(rep)
		if opts.Stored.Update {
			if err := c.store(r.Root, chapters, rep); err != nil {
				return nil, err
			}
		}
	}
	rep.Seconds = round(time.Since(start).Seconds())
	rep.conclude()
	return rep, nil
}

// baselinesOf returns every chapter's baseline, in the order of chapters:
// the stored one where the chapter's key holds (c says), else one run now
// in a single go test over those chapters. It records the run's time in
// rep and reports the baselines it ran through p.
func baselinesOf(ctx context.Context, r *variant.Runner, chapters []*weakening.Chapter, c *carried, rep *Report, p Progress) ([]Baseline, error) {
	var torun []*weakening.Chapter
	for _, ch := range chapters {
		if c == nil || !c.baselineHolds(ch) {
			torun = append(torun, ch)
		}
	}
	start := time.Now()
	var ran []Baseline
	if len(torun) > 0 {
		var err error
		if ran, err = runBaselines(ctx, r, torun); err != nil {
			return nil, err
		}
	}
	rep.BaselineSeconds = round(time.Since(start).Seconds())
	baselines := make([]Baseline, len(chapters))
	for i, ch := range chapters {
		if j := slices.Index(torun, ch); j >= 0 {
			baselines[i] = ran[j]
		} else {
			baselines[i] = Baseline{Chapter: ch.Name, Passed: true, Tests: c.tests[ch.Name], Reused: true}
		}
	}
	rep.Baselines = baselines
	if p.OnBaselines != nil && len(torun) > 0 {
		p.OnBaselines(ran, rep.BaselineSeconds)
	}
	return baselines, nil
}

// tally collects the verdicts as they arrive, from several goroutines.
type tally struct {
	mu       sync.Mutex
	rep      *Report
	failed   map[string]map[string]bool // chapter -> top-level tests some weakening failed
	onResult func(Result)
}

// add records one fresh verdict and reports it as it arrives (one call
// of onResult at a time).
func (ta *tally) add(r Result) {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	ta.record(r)
	if ta.onResult != nil {
		ta.onResult(r)
	}
}

// remember records a reused verdict: it counts like a fresh one, but is
// not reported as it arrives.
func (ta *tally) remember(r Result) {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	ta.record(r)
}

// record adds r and the tests it saw fail to the report; ta.mu is held.
func (ta *tally) record(r Result) {
	ta.rep.Weakenings = append(ta.rep.Weakenings, r)
	if ta.failed[r.Chapter] == nil {
		ta.failed[r.Chapter] = map[string]bool{}
	}
	for _, name := range r.FailedTests {
		ta.failed[r.Chapter][name] = true
	}
}

// queue returns the weakenings to run, longest chapter first: the last
// runs to finish are short ones, so the cores stay busy. A weakening that
// cannot run (its entry is malformed, its chapter's baseline fails) gets
// its verdict here instead.
func (ta *tally) queue(chapters []*weakening.Chapter, baselines []Baseline, c *carried) []job {
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
			if c != nil {
				if _, reused := c.reused[ch.Name+"/"+w.Name]; reused {
					continue
				}
			}
			queue = append(queue, job{w: w, listed: base.Tests, cost: base.Seconds})
		}
	}
	sort.SliceStable(queue, func(i, j int) bool { return queue[i].cost > queue[j].cost })
	return queue
}

// gradeAll grades the queued weakenings in r's pool and hands each
// verdict to add. A weakening in the shared build runs its chapter's
// binary with its switch on; any other is built on its own. A weakening
// whose go command could not run is an invalid verdict; the errors are
// joined into the result.
func gradeAll(ctx context.Context, r *variant.Runner, queue []job, shared *sharedBuild, add func(Result)) error {
	var (
		mu     sync.Mutex
		runErr error
	)
	err := r.Each(ctx, len(queue), func(ctx context.Context, i int) error {
		j := queue[i]
		var res Result
		var err error
		if num, bin, ok := shared.switched(j.w); ok {
			res, err = gradeSwitched(ctx, r, j.w, num, bin, j.listed)
		} else {
			res, err = Grade(ctx, r, j.w, j.listed)
		}
		if ctx.Err() != nil {
			return ctx.Err() // an interrupted run proves nothing
		}
		if err != nil {
			mu.Lock()
			runErr = errors.Join(runErr, err)
			mu.Unlock()
			res = Result{Chapter: j.w.Chapter, Name: j.w.Name, FailedTests: []string{}, Tests: j.w.Tests}.invalid(RunFailed, err.Error())
		}
		add(res)
		return nil
	})
	return errors.Join(err, runErr)
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

// runBaselines runs every chapter's tests without a weakening, and lists
// their top-level tests, in two go commands running side by side.
func runBaselines(ctx context.Context, r *variant.Runner, chapters []*weakening.Chapter) ([]Baseline, error) {
	pkgs := make([]string, len(chapters))
	for i, ch := range chapters {
		pkgs[i] = ch.Package()
	}
	var runs, lists map[string]*variant.PackageRun
	err := r.Each(ctx, 2, func(ctx context.Context, i int) error {
		var err error
		if i == 0 {
			runs, err = r.GoTest(ctx, variant.GoTest{Packages: pkgs})
		} else {
			lists, err = r.GoTest(ctx, variant.GoTest{Packages: pkgs, Flags: []string{"-list", "."}})
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	out := make([]Baseline, len(chapters))
	for i, ch := range chapters {
		out[i] = baselineOf(ch, runs, lists)
	}
	return out, nil
}

// baselineOf reads chapter ch's baseline from the runs and the lists.
func baselineOf(ch *weakening.Chapter, runs, lists map[string]*variant.PackageRun) Baseline {
	b := Baseline{Chapter: ch.Name, Tests: []string{}}
	run, ok := variant.RunOf(runs, ch.Name)
	if list, listed := variant.RunOf(lists, ch.Name); listed && !list.BuildFailed {
		b.Tests = list.Listed()
	}
	switch {
	case !ok:
		b.Reason = "the go command reported nothing for " + ch.Package()
	case run.BuildFailed:
		b.Reason = "the chapter does not build without any weakening: " + variant.FirstLines(run.BuildOutput, 3, "; ")
	case run.TimedOut:
		b.Reason = "the chapter's tests time out without any weakening"
	case len(run.FailedTopLevel()) > 0:
		b.Reason = strings.Join(run.FailedTopLevel(), ", ") + " failed without any weakening"
	case run.Action == "fail":
		b.Reason = "the chapter's tests fail without any weakening: " + variant.FirstLines(run.Output, 3, "; ")
	default:
		b.Passed = true
		b.Seconds = round(run.Elapsed)
	}
	return b
}

// neverFailing adds the chapter's top-level tests that no weakening made
// fail to rep: excused ones (with their reason) to Excused, the rest to
// NeverFailing. A chapter whose baseline failed is skipped (its weakenings
// are all invalid already). An excuse naming no test of the chapter is a
// problem: the excuse file has drifted from the tests.
func (rep *Report) neverFailing(ch *weakening.Chapter, base Baseline, failed map[string]bool, learner []string) {
	if ch.ExcuseErr != nil {
		rep.Problems = append(rep.Problems, ch.ExcuseErr.Error())
	}
	if !base.Passed {
		return
	}
	for _, test := range base.Tests {
		if slices.Contains(learner, test) {
			rep.Learner = append(rep.Learner, ChapterTest{Chapter: ch.Name, Test: test})
			continue
		}
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
