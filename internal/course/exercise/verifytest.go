package exercise

// This file grades a test exercise: the learner's tests must pass against
// the shipped mechanism (the wheat) and fail against every broken copy of
// it; the score is how many broken copies they catch.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// verifyTest grades a test exercise: the learner's file, then the
// shipped mechanism, then every broken copy.
func verifyTest(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, w *Work, opts Options) (*Verdict, error) {
	v := &Verdict{Exercise: e}
	names, err := learnerTestNames(set.Root, e, w, v)
	if err != nil || v.Reason != "" {
		return v, err
	}
	if ok, err := passOnShipped(ctx, r, e, names, v, opts); err != nil || !ok {
		return v, err
	}
	return v, score(ctx, set, r, e, w, names, v, opts)
}

// learnerTestNames returns the tests of the learner's file, or says in v
// why it cannot be graded yet: the mechanism was changed, the file is
// gone, does not parse, declares no test, or reuses a withheld test's name.
func learnerTestNames(root string, e *Exercise, w *Work, v *Verdict) ([]string, error) {
	now, err := snapshot(root, e.Chapter)
	if err != nil {
		return nil, err
	}
	var code []string
	for _, f := range changed(w.Snapshot, now) {
		if strings.HasPrefix(f, "internal/") {
			code = append(code, f)
		}
	}
	if len(code) > 0 {
		v.Reason = "you changed the mechanism (" + fewFiles(code) + "); your tests are graded against it as shipped"
		v.Next = "undo that: git checkout " + fewFiles(code)
		return nil, nil
	}
	learner := e.LearnerFile()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(learner)))
	if err != nil {
		v.Reason = "your test file " + learner + " is gone"
		v.Next = "go run ./tools/drill reset " + e.Name + ", then start it again"
		return nil, nil
	}
	names, err := learnerTests(learner, src)
	switch {
	case err != nil:
		v.Reason, v.Message, v.Next = "your test file does not parse", err.Error(), "fix it, save, and verify again"
	case len(names) == 0:
		v.Reason, v.Next = "your test file "+learner+" declares no test", "write func TestSomething(t *testing.T) in it"
	}
	for _, n := range names {
		if slices.Contains(e.Withhold, n) && v.Reason == "" {
			v.Reason = n + " is the name of the chapter's own test, which comes back once you are done"
			v.Next = "give your test a name of its own, such as " + ReferenceName(n)
		}
	}
	return names, nil
}

// passOnShipped runs the learner's tests against the shipped mechanism:
// a test that rejects correct code is wrong.
func passOnShipped(ctx context.Context, r *variant.Runner, e *Exercise, names []string, v *Verdict, opts Options) (bool, error) {
	opts.step("running your tests against the shipped mechanism")
	out, err := runChapter(ctx, r, Request{Chapter: e.Chapter, Tests: names})
	if err != nil {
		return false, err
	}
	v.Log, v.Output, v.Message = out.Log, out.Output, out.Message
	switch {
	case out.BuildFailed:
		v.Reason, v.Next = buildFailure("your test", out)
	case !out.Passed:
		v.Reason = "your test fails against the shipped mechanism, which is correct: a test that rejects correct code is wrong"
		v.Next = "make it pass on the shipped code first; then make it strict enough to catch the broken copies"
	}
	return v.Reason == "", nil
}

// score runs the learner's tests against every broken copy and scores
// them: done when they catch all; else v names each missed guarantee.
func score(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, w *Work, names []string, v *Verdict, opts Options) error {
	root := set.Root
	if !fresh(root, w.Chaffs) {
		opts.step("preparing the broken copies again: the mechanism changed since they were made")
		var err error
		if w.Chaffs, err = prepareChaffs(ctx, set, e); err != nil {
			return err
		}
		if err := w.save(root); err != nil {
			return err
		}
	}
	opts.step(fmt.Sprintf("running your tests against %d broken copies", len(w.Chaffs)))
	caught := make([]bool, len(w.Chaffs))
	logs := make([]string, len(w.Chaffs))
	err := r.Each(ctx, len(w.Chaffs), func(ctx context.Context, i int) error {
		c := w.Chaffs[i]
		o, err := runChapter(ctx, r, Request{Chapter: e.Chapter, Tests: names, Overlay: variant.Overlay{
			filepath.Join(root, filepath.FromSlash(c.File)): filepath.Join(root, filepath.FromSlash(c.Copy)),
		}})
		if err != nil {
			return err
		}
		caught[i] = !o.Passed && !o.BuildFailed
		logs[i] = fmt.Sprintf("=== broken copy %d (%s): caught %t\n%s", i+1, c.Property, caught[i], o.Log)
		return nil
	})
	if err != nil {
		return err
	}
	s := &Score{Chaffs: len(w.Chaffs)}
	for i, c := range w.Chaffs {
		if caught[i] {
			s.Caught++
		} else {
			s.Missed = append(s.Missed, c.Property)
		}
	}
	v.Score, v.Log, v.Message = s, v.Log+"\n"+strings.Join(logs, "\n"), ""
	if v.Done = s.Full(); v.Done {
		return nil
	}
	v.Reason = fmt.Sprintf("your tests pass on the shipped mechanism but catch %d of %d broken copies (%d%%)", s.Caught, s.Chaffs, s.Percent())
	v.Message = "They still pass when the mechanism breaks these guarantees:\n  - " + strings.Join(s.Missed, "\n  - ")
	v.Next = "add a check that fails when the first of those is broken, and verify again"
	return nil
}
