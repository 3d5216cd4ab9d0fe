package exercise

// This file grades a fix or a build: done when the chapter is green, so
// is every other chapter whose tests reach the code the learner changed,
// and the chapter's catalog still catches every weakening of that code,
// so a repair cannot buy green by dropping a guarantee.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
	if green, err := othersGreen(ctx, set, r, e, w, code, v, opts); err != nil || !green {
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
		v.Reason, v.Next = buildFailure("the chapter", out)
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

// compileError matches a compiler's message about a file: "x.go:12:3: ".
var compileError = regexp.MustCompile(`\.go:\d+:\d+: `)

// noSpace is what the go command, the compiler and the linker print when
// a write fails because the disk (usually $TMPDIR's) is full.
const noSpace = "no space left on device"

// buildFailure says why what ("the chapter", "your test") did not build
// and what to do: a compile error is the learner's to fix; a build the go
// command could not finish (a full disk, a linker that died) is not, and
// saying "fix the compile error" would send them looking in the wrong
// place. The go command's own line is quoted: out.Message holds the
// build's first lines, and out.Log everything the run printed, where a
// linker's complaint after many lines still is.
func buildFailure(what string, out *Outcome) (reason, next string) {
	all := out.Message + "\n" + out.Log
	switch {
	case strings.Contains(all, noSpace):
		return "the go command ran out of disk space building " + what + ": " + lineWith(all, noSpace),
			"free some space (the build writes to $TMPDIR and the go build cache) and verify again; nothing says your code is wrong"
	case !compileError.MatchString(all):
		first, _, _ := strings.Cut(strings.TrimSpace(out.Message), "\n")
		return "the go command could not build " + what + ": " + first,
			"read the go command's message above: it is not a compile error in your code; fix its cause and verify again"
	}
	return what + " does not build", "fix the compile error above, save, and verify again"
}

// lineWith returns the first line of text that contains s, trimmed.
func lineWith(text, s string) string {
	for line := range strings.Lines(text) {
		if strings.Contains(line, s) {
			return strings.TrimSpace(line)
		}
	}
	return s
}

// othersGreen runs, once the exercise's own chapter is green, the tests of
// every other chapter that reaches a file of code, and reports whether
// they pass; if not, v says which chapter the change breaks. A test that
// fails with the shipped code too (a chapter red on purpose) is not the
// learner's doing and does not count.
func othersGreen(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, w *Work, code []string, v *Verdict, opts Options) (bool, error) {
	var all []string
	for _, ch := range set.Catalog.Chapters {
		if ch.Name != e.Chapter {
			all = append(all, ch.Name)
		}
	}
	others, err := chaptersReaching(set.Root, all, code)
	if err != nil || len(others) == 0 {
		return err == nil, err
	}
	opts.step(fmt.Sprintf("green; running the %d other chapters your code reaches (%s)", len(others), strings.Join(others, ", ")))
	outs, err := runChapters(ctx, r, others, nil)
	if err != nil {
		return false, err
	}
	var red []string
	for _, ch := range others {
		v.Log += outs[ch].Log
		if !outs[ch].Passed {
			red = append(red, ch)
		}
	}
	if len(red) == 0 {
		return true, nil
	}
	shipped, err := shippedOverlay(ctx, set.Root, code, w)
	if err != nil {
		return false, err
	}
	defer shipped.remove()
	before, err := runChapters(ctx, r, red, shipped.overlay)
	if err != nil {
		return false, err
	}
	for _, ch := range red {
		out := outs[ch]
		broken := slices.DeleteFunc(slices.Clone(out.Failed), func(t string) bool { return slices.Contains(before[ch].Failed, t) })
		if !out.BuildFailed && (len(broken) == 0 || before[ch].BuildFailed) {
			continue // red with the shipped code too
		}
		v.Output, v.Message = out.Output, out.Message
		if out.BuildFailed {
			v.Reason = ch + " does not build with your change"
		} else {
			v.Reason = "your change breaks another chapter: the " + ch + " tests fail: " + strings.Join(broken, ", ")
		}
		v.Next = "a repair must keep every chapter's guarantees; read the failing test of " + ch + ", change your code, and verify again"
		return false, nil
	}
	return true, nil
}

// overlaid is a folder of files an overlay reads instead of the module's.
type overlaid struct {
	dir     string
	overlay variant.Overlay
}

func (o overlaid) remove() { os.RemoveAll(o.dir) }

// shippedOverlay returns an overlay that builds files as shipped (from
// w's record of the start where it holds them).
func shippedOverlay(ctx context.Context, root string, files []string, w *Work) (overlaid, error) {
	shipped, err := LoadShipped(root)
	if err != nil {
		return overlaid{}, err
	}
	dir, err := os.MkdirTemp("", "drill-shipped-")
	if err != nil {
		return overlaid{}, err
	}
	o := overlaid{dir: dir, overlay: variant.Overlay{}}
	for i, f := range files {
		data, err := shippedBytes(ctx, root, f, shipped, w)
		if errors.Is(err, ErrNotShipped) {
			continue // no exercise touches it: it stays as it is
		}
		if err != nil {
			o.remove()
			return overlaid{}, err
		}
		copyPath := filepath.Join(dir, strconv.Itoa(i)+"_"+filepath.Base(f))
		if err := os.WriteFile(copyPath, data, 0o644); err != nil {
			o.remove()
			return overlaid{}, err
		}
		o.overlay[filepath.Join(root, filepath.FromSlash(f))] = copyPath
	}
	return o, nil
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
