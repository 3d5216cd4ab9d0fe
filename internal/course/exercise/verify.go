package exercise

// This file grades the learner's work on one exercise. A fix or build is
// done when the chapter is green and the chapter's catalog still catches
// every weakening that applies to what the learner changed; a test
// exercise is done when the learner's tests pass against the shipped
// mechanism and fail against every chaff.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Verdict is one grading of an exercise.
type Verdict struct {
	Exercise *Exercise
	Done     bool
	// Reason says in one line why the exercise is not done yet.
	Reason string
	// Message is the first failure in the failing test's own words.
	Message string
	// Next is what to do now, in one line.
	Next string
	// Score is a test exercise's score, once its tests pass on the wheat.
	Score *Score
	// Output is the output of the failed tests of the chapter run, to
	// match an expect pattern against.
	Output string
	// Notes are things worth knowing that do not decide the verdict.
	Notes []string
	// Log is every run's full output, for -v.
	Log string
	// Saved is, once done, the learner's solution file, relative to the
	// module root.
	Saved string
}

// Options tune a grading.
type Options struct {
	// Step, if not nil, is told what the grading does next, in a few words.
	Step func(string)
}

func (o Options) step(s string) {
	if o.Step != nil {
		o.Step(s)
	}
}

// Verify grades e in the working tree under set.Root with r and returns
// the verdict. The exercise must have been started (and not reset since).
// A verdict that says done has been acted on: the learner's solution is
// saved (Verdict.Saved names the file) and the files e touched are as
// shipped again. An interrupted grading returns ErrInterrupted and counts
// nothing.
func Verify(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, opts Options) (*Verdict, error) {
	root := set.Root
	w, ok, err := LoadWork(root, e.Name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotStarted, e.Name)
	}
	var v *Verdict
	if e.Kind == Test {
		v, err = verifyTest(ctx, set, r, e, w, opts)
	} else {
		v, err = verifyCode(ctx, set, r, e, w, opts)
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	if err != nil {
		return nil, err
	}
	if v.Done {
		if v.Saved, err = finish(ctx, set, e, w); err != nil {
			return nil, err
		}
	}
	return v, count(root, e, v)
}

// count keeps a finished grading in the learner's working record.
func count(root string, e *Exercise, v *Verdict) error {
	prog, err := LoadProgress(root)
	if err != nil {
		return err
	}
	rec := prog.record(e.Name)
	rec.Verifies++
	if v.Score != nil {
		rec.Score = v.Score
	}
	if v.Done {
		rec.Started = time.Time{}
		if prog.Current == e.Name {
			prog.Current = ""
		}
	}
	return prog.Save(root)
}

// finish ends a done exercise: the learner's solution saved where they
// can commit it, every file the exercise touched put back as shipped and
// shown to git again, the start forgotten, the solution marked verified.
// It returns the solution file, relative to the module root.
func finish(ctx context.Context, set *Set, e *Exercise, w *Work) (string, error) {
	root := set.Root
	sol, err := solutionOf(root, e, w)
	if err != nil {
		return "", err
	}
	digest, err := sol.save(root, e)
	if err != nil {
		return "", err
	}
	for _, ed := range w.Edits {
		if err := ed.Undo(root); err != nil {
			return "", fmt.Errorf("put %s back as shipped: %w (your solution is saved in %s)", ed.File, err, e.SolutionFile())
		}
	}
	unhide(context.WithoutCancel(ctx), root, w.files())
	if err := w.forget(root); err != nil {
		return "", err
	}
	return e.SolutionFile(), markVerified(root, e.Name, digest)
}

// verifyCode grades a fix or a build.
func verifyCode(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, w *Work, opts Options) (*Verdict, error) {
	root := set.Root
	v := &Verdict{Exercise: e}
	now, err := snapshot(root, e.Chapter)
	if err != nil {
		return nil, err
	}
	var tests, code []string
	for _, f := range changed(w.Snapshot, now) {
		if slices.ContainsFunc(w.Edits, func(ed Edit) bool { return ed.File == f }) {
			continue // judged against the shipped bytes below
		}
		if strings.HasPrefix(f, "chapters/") {
			tests = append(tests, f)
		} else {
			code = append(code, f)
		}
	}
	if len(tests) > 0 {
		v.Reason = "you changed the chapter's tests (" + fewFiles(tests) + "); the exercise is graded by them as shipped"
		v.Next = "undo that: git checkout " + strings.Join(tests, " ")
		return v, nil
	}

	opts.step("running the " + e.Chapter + " tests")
	out, err := runChapter(ctx, r, Request{Chapter: e.Chapter})
	if err != nil {
		return nil, err
	}
	v.Log, v.Output, v.Message = out.Log, out.Output, out.Message
	switch {
	case out.BuildFailed:
		v.Reason = "the chapter does not build"
		v.Next = "fix the compile error above, save, and verify again"
		return v, nil
	case !out.Passed:
		v.Reason = redReason(e.Chapter, out)
		if e.Kind == Fix {
			v.Next = "read what the failing test says is wrong, repair the code, and verify again (stuck? go run ./tools/drill hint)"
		} else {
			v.Next = "make " + e.Func + " do what the failing test expects, and verify again (stuck? go run ./tools/drill hint)"
		}
		return v, nil
	}

	// Green. What the learner changed must not let a catalog mistake
	// through: every weakening of a changed file that still applies must
	// still be caught. The exercise's own file is changed if it differs
	// from the shipped one, not from the broken one start left.
	for _, ed := range w.Edits {
		if state, _, err := ed.State(root); err != nil {
			return nil, err
		} else if state != Undone && !slices.Contains(code, ed.File) {
			code = append(code, ed.File)
		}
	}
	var ws []*weakeningRef
	if ch, ok := set.Catalog.Chapter(e.Chapter); ok {
		for _, wk := range ch.Weakenings {
			if slices.Contains(code, wk.File) {
				ws = append(ws, &weakeningRef{w: wk})
			}
		}
	}
	if len(ws) > 0 {
		opts.step(fmt.Sprintf("green; checking that the chapter still catches the %d weakenings of what you changed", len(ws)))
	}
	if err := r.Each(ctx, len(ws), func(ctx context.Context, i int) error {
		g, err := gradeWeakening(ctx, r, ws[i].w)
		ws[i].g = g
		return err
	}); err != nil {
		return nil, err
	}
	for _, ref := range ws {
		switch {
		case !ref.g.Applies:
			v.Notes = append(v.Notes, fmt.Sprintf("weakening %s does not apply to your code (%s); not graded", ref.w.Name, ref.g.Reason))
		case !ref.g.Caught && v.Reason == "":
			v.Reason = fmt.Sprintf("the chapter is green, but its tests no longer catch weakening %s: %s", ref.w.Name, ref.w.Summary)
			v.Message = ref.g.Reason
			v.Next = "your code must keep every guarantee the chapter's tests check; 'go run ./tools/drill show " + ref.w.Name + "' shows the mistake they now miss"
		}
	}
	v.Done = v.Reason == ""
	return v, nil
}

// weakeningRef is a weakening and its grading.
type weakeningRef struct {
	w *weakening.Weakening
	g Graded
}

// fewFiles names at most three files, and how many more there are.
func fewFiles(files []string) string {
	if len(files) <= 3 {
		return strings.Join(files, " ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:3], " "), len(files)-3)
}

// redReason says which tests fail.
func redReason(chapter string, out *Outcome) string {
	if len(out.Failed) == 0 {
		return "the " + chapter + " tests fail"
	}
	return "the " + chapter + " tests fail: " + strings.Join(out.Failed, ", ")
}

// verifyTest grades a test exercise: the wheat, then every chaff.
func verifyTest(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, w *Work, opts Options) (*Verdict, error) {
	root := set.Root
	v := &Verdict{Exercise: e}
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
		return v, nil
	}
	learner := e.LearnerFile()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(learner)))
	if err != nil {
		v.Reason = "your test file " + learner + " is gone"
		v.Next = "go run ./tools/drill reset " + e.Name + ", then start it again"
		return v, nil
	}
	names, err := learnerTests(learner, src)
	if err != nil {
		v.Reason = "your test file does not parse"
		v.Message = err.Error()
		v.Next = "fix it, save, and verify again"
		return v, nil
	}
	if len(names) == 0 {
		v.Reason = "your test file " + learner + " declares no test"
		v.Next = "write func TestSomething(t *testing.T) in it"
		return v, nil
	}
	for _, n := range names {
		if slices.Contains(e.Withhold, n) {
			v.Reason = n + " is the name of the chapter's own test, which comes back once you are done"
			v.Next = "give your test a name of its own, such as " + ReferenceName(n)
			return v, nil
		}
	}

	opts.step("running your tests against the shipped mechanism")
	out, err := runChapter(ctx, r, Request{Chapter: e.Chapter, Tests: names})
	if err != nil {
		return nil, err
	}
	v.Log, v.Output, v.Message = out.Log, out.Output, out.Message
	switch {
	case out.BuildFailed:
		v.Reason = "your test does not build"
		v.Next = "fix the compile error above, save, and verify again"
		return v, nil
	case !out.Passed:
		v.Reason = "your test fails against the shipped mechanism, which is correct: a test that rejects correct code is wrong"
		v.Next = "make it pass on the shipped code first; then make it strict enough to catch the broken copies"
		return v, nil
	}

	if !fresh(root, w.Chaffs) {
		opts.step("preparing the broken copies again: the mechanism changed since they were made")
		if w.Chaffs, err = prepareChaffs(ctx, set, e); err != nil {
			return nil, err
		}
		if err := w.save(root); err != nil {
			return nil, err
		}
	}
	opts.step(fmt.Sprintf("running your tests against %d broken copies", len(w.Chaffs)))
	caught := make([]bool, len(w.Chaffs))
	logs := make([]string, len(w.Chaffs))
	err = r.Each(ctx, len(w.Chaffs), func(ctx context.Context, i int) error {
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
		return nil, err
	}
	s := &Score{Chaffs: len(w.Chaffs)}
	for i, c := range w.Chaffs {
		if caught[i] {
			s.Caught++
		} else {
			s.Missed = append(s.Missed, c.Property)
		}
	}
	v.Score = s
	v.Log += "\n" + strings.Join(logs, "\n")
	v.Message = ""
	if s.Full() {
		v.Done = true
		return v, nil
	}
	v.Reason = fmt.Sprintf("your tests pass on the shipped mechanism but catch %d of %d broken copies (%d%%)", s.Caught, s.Chaffs, s.Percent())
	var b strings.Builder
	b.WriteString("They still pass when the mechanism breaks these guarantees:")
	for _, m := range s.Missed {
		b.WriteString("\n  - " + m)
	}
	v.Message = b.String()
	v.Next = "add a check that fails when the first of those is broken, and verify again"
	return v, nil
}

// Matches reports whether v's failing output matches e's stated reason
// for starting red: its expect pattern (for a test exercise without one,
// the learner file's own "not written yet" message).
func (v *Verdict) Matches() bool {
	pattern := v.Exercise.Expect
	if pattern == "" && v.Exercise.Kind == Test {
		pattern = "not written yet"
	}
	if pattern == "" {
		return true
	}
	return regexp.MustCompile(pattern).MatchString(v.Output + v.Message)
}
