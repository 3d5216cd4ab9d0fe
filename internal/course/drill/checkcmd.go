package drill

// This file is the `drill check` subcommand: its flags, its chapter
// arguments, and where the report goes.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/fencelab/fencelab/internal/course/check"
	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// check runs `drill check [CHAPTER...] [--json] [--full] [--update] [--sample N [--seed S]]`.
func (t *Tool) check(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON document instead of progress and a table")
	var jobs int
	jobsFlag.Var(fs, &jobs, "run `N` go test commands at once (0, the default: one more than the number of CPUs)")
	timeout := fs.Duration("timeout", 0, "give each go test run a -timeout of `DURATION` (0, the default: "+variant.DefaultTimeout.String()+")")
	update := fs.Bool("update", false, "write the caught verdicts to "+check.VerdictDir+" (make check does)")
	reuse := addReuseFlags(fs, "weakening")
	names, err := parseArgs(fs, args, "[CHAPTER...] [--json] [--full] [--update] [--sample N [--seed S]]", checkHelp(), t.Stderr)
	if err != nil {
		return err
	}
	if err := jobsFlag.Check(jobs); err != nil {
		return usagef("%v", err)
	}
	if err := reuse.check(); err != nil {
		return err
	}
	if *timeout < 0 {
		return usagef("--timeout %s: want a positive duration such as 90s or 2m", *timeout)
	}
	root, cat, err := t.catalog()
	if err != nil {
		return err
	}
	if *update { // only a check that writes its verdicts changes the tree
		unlock, err := t.lockTree(root, "check")
		if err != nil {
			return err
		}
		defer unlock()
	}
	chapters, err := pickChapters(cat, names)
	if err != nil {
		return err
	}
	if err := treeAsShipped(root); err != nil {
		return err
	}

	r := t.runner(root)
	if jobs > 0 {
		r.Jobs = jobs
	}
	if *timeout > 0 {
		r.Timeout = *timeout
	}
	defer r.Close()
	p := check.Progress{Note: func(s string) { fmt.Fprintf(t.Stderr, "drill check: %s\n", s) }}
	if !*asJSON {
		t.showCheckProgress(&p, chapters, r, *reuse.full)
	}
	stored := check.Reuse{Full: *reuse.full, Sample: reuse.sample, Seed: uint64(reuse.seed), Update: *update}
	rep, err := check.Check(ctx, r, chapters, check.Options{Progress: p, Stored: &stored})
	if err != nil {
		return err
	}
	// The exercises are the learner track's, a layer above the check: an
	// exercise its chapter's text never names fails the check all the same.
	if set, err := exercise.Load(cat); err == nil {
		for _, ch := range chapters {
			for _, p := range exercise.UnnamedInText(set, ch.Name) {
				rep.Problems = append(rep.Problems, p)
				rep.OK = false
			}
		}
	}
	return t.reportCheck(rep, *asJSON)
}

// reportCheck prints the check's report (as JSON, or as a table), adds it
// to the job summary if there is one, and fails if anything was not caught.
func (t *Tool) reportCheck(rep *check.Report, asJSON bool) error {
	if asJSON {
		if err := writeJSON(t.Stdout, rep); err != nil {
			return err
		}
	} else {
		writeTable(t.Stdout, rep)
	}
	if t.SummaryFile != "" {
		if err := appendSummary(t.SummaryFile, rep); err != nil {
			fmt.Fprintf(t.Stderr, "drill check: job summary: %v\n", err)
		}
	}
	if !rep.OK {
		return errReported
	}
	return nil
}

// checkHelp is check's summary for -h.
func checkHelp() string {
	return "The graded check. For every weakening: the chapter's tests pass without it; with it\n" +
		"(through go test -overlay, the working tree untouched) the tree builds, every named test\n" +
		"runs and fails, none skips or times out, and the failure output matches the expect pattern.\n" +
		"Every chapter test must fail under some weakening, or carry a reason in the chapter's\n" +
		"weakenings/never-failing.txt. Exit status 0 only if all of that holds.\n" +
		"Caught verdicts kept in " + check.VerdictDir + "/CHAPTER.txt (--update writes them) are reused\n" +
		"while nothing the chapter is built from changed; --full judges everything again, --sample N\n" +
		"judges N reused ones again."
}

// pickChapters returns the chapters names asks for (all of them if none),
// each once, in catalog order.
func pickChapters(cat *weakening.Catalog, names []string) ([]*weakening.Chapter, error) {
	if len(names) == 0 {
		return cat.Chapters, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		ch, ok := cat.Chapter(n)
		if !ok {
			return nil, usagef("unknown chapter %q: want one of %s", n, cat.ChapterNames())
		}
		want[ch.Name] = true
	}
	var out []*weakening.Chapter
	for _, ch := range cat.Chapters {
		if want[ch.Name] {
			out = append(out, ch)
		}
	}
	return out, nil
}

// appendSummary appends rep as Markdown to file.
func appendSummary(file string, rep *check.Report) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	writeMarkdown(f, rep)
	return f.Close()
}

// treeAsShipped refuses to check a tree that is red on purpose: a
// weakening applied, or an exercise started.
func treeAsShipped(root string) error {
	if a, ok, err := readApplied(root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s is applied to %s in the working tree (drill apply); run 'go run ./tools/drill restore' first, so the baseline is the real code", a.Name, a.File)
	}
	if name, ok, err := startedExercise(root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("exercise %s is started, so its chapter is red on purpose; finish it (go run ./tools/drill verify) or reset it (go run ./tools/drill reset %s) first", name, name)
	}
	return nil
}

// showCheckProgress makes p print the check's steps on t.Stdout as they
// finish: the plan, the baselines, the shared build, each verdict.
func (t *Tool) showCheckProgress(p *check.Progress, chapters []*weakening.Chapter, r *variant.Runner, full bool) {
	total := 0
	for _, ch := range chapters {
		total += len(ch.Weakenings) + len(ch.Broken)
	}
	fmt.Fprintf(t.Stdout, "drill check: %d chapters, %d weakenings, %d go test runs at a time, -timeout %s\n",
		len(chapters), total, r.Limit(), r.TestTimeout())
	var mu sync.Mutex
	done := 0
	p.OnReused = func(reused int, sample *check.SampleReport) {
		mu.Lock()
		defer mu.Unlock()
		done += reused
		switch {
		case full:
			fmt.Fprintf(t.Stdout, "--full: every weakening is judged, no stored verdict reused\n")
		case sample != nil:
			fmt.Fprintf(t.Stdout, "%d stored verdicts hold: %d reused, %d judged again at random (seed %d, --seed %d repeats it)\n",
				reused+sample.Size, reused, sample.Size, sample.Seed, sample.Seed)
		default:
			fmt.Fprintf(t.Stdout, "%d stored verdicts hold and are reused (--full judges them again)\n", reused)
		}
	}
	p.OnBaselines = func(bs []check.Baseline, seconds float64) {
		fmt.Fprintf(t.Stdout, "ran the tests of %d chapters without weakenings first:\n", len(bs))
		for _, b := range bs {
			fmt.Fprintln(t.Stdout, baselineLine(b))
		}
		fmt.Fprintf(t.Stdout, "baselines done in %.1fs (one go test over those chapters; it also warms the build cache)\n", seconds)
	}
	p.OnShared = func(shared, alone int, seconds float64) {
		if shared+alone == 0 {
			return
		}
		fmt.Fprintf(t.Stdout, "shared build in %.1fs: %d weakenings switched inside it, %d built one by one\n", seconds, shared, alone)
	}
	p.OnResult = func(res check.Result) {
		mu.Lock()
		defer mu.Unlock()
		done++
		fmt.Fprintln(t.Stdout, progressLine(done, total, res))
	}
}
