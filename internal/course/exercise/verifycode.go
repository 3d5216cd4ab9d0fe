package exercise

// This file grades a fix or a build: done when the chapter is green and
// the chapter's catalog still catches every weakening of what the learner
// changed, so a repair cannot buy green by dropping a guarantee.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// verifyCode grades a fix or a build.
func verifyCode(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, w *Work, opts Options) (*Verdict, error) {
	v := &Verdict{Exercise: e}
	code, err := codeChanged(set.Root, e, w, v)
	if err != nil || v.Reason != "" {
		return v, err
	}
	if green, err := chapterGreen(ctx, r, e, v, opts); err != nil || !green {
		return v, err
	}
	return v, catalogStillCaught(ctx, set, r, e, code, v, opts)
}

// codeChanged returns the mechanism files the learner changed, the
// exercise's own among them once it differs from the shipped file. A
// change to the chapter's tests is refused in v: they grade the exercise.
func codeChanged(root string, e *Exercise, w *Work, v *Verdict) ([]string, error) {
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
		return nil, nil
	}
	for _, ed := range w.Edits {
		if state, _, err := ed.State(root); err != nil {
			return nil, err
		} else if state != Undone && !slices.Contains(code, ed.File) {
			code = append(code, ed.File)
		}
	}
	return code, nil
}

// chapterGreen runs the chapter's tests and reports whether they pass; if
// not, v says why and what to do.
func chapterGreen(ctx context.Context, r *variant.Runner, e *Exercise, v *Verdict, opts Options) (bool, error) {
	opts.step("running the " + e.Chapter + " tests")
	out, err := runChapter(ctx, r, Request{Chapter: e.Chapter})
	if err != nil {
		return false, err
	}
	v.Log, v.Output, v.Message = out.Log, out.Output, out.Message
	switch {
	case out.BuildFailed:
		v.Reason = "the chapter does not build"
		v.Next = "fix the compile error above, save, and verify again"
	case !out.Passed:
		v.Reason = redReason(e.Chapter, out)
		if e.Kind == Fix {
			v.Next = "read what the failing test says is wrong, repair the code, and verify again (stuck? go run ./tools/drill hint)"
		} else {
			v.Next = "make " + e.Func + " do what the failing test expects, and verify again (stuck? go run ./tools/drill hint)"
		}
	}
	return v.Reason == "", nil
}

// catalogStillCaught grades every weakening of the chapter that edits a
// file in code: each that still applies must still be caught. v is done
// if they all are.
func catalogStillCaught(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, code []string, v *Verdict, opts Options) error {
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
	if err := gradeWeakenings(ctx, r, ws); err != nil {
		return err
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
	return nil
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
