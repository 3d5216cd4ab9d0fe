package exercise

// This file grades the learner's work on one exercise and acts on a done
// verdict: the solution saved, the shipped code back. How each kind is
// graded is in verifycode.go (fix, build) and verifytest.go (test).

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
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
		if v.Saved, err = finish(ctx, set, e, w, v); err != nil {
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
func finish(ctx context.Context, set *Set, e *Exercise, w *Work, v *Verdict) (string, error) {
	root := set.Root
	sol, err := solutionOf(root, e, w)
	if err != nil {
		return "", err
	}
	digest, aside, err := sol.save(root, e)
	if err != nil {
		return "", err
	}
	if aside != "" {
		v.Notes = append(v.Notes, "your earlier solution, which differs from this one, is kept in "+aside)
	}
	shipped, err := LoadShipped(root)
	if err != nil {
		return "", err
	}
	for _, ed := range w.Edits {
		if err := undoEdit(ctx, root, ed, shipped, w); err != nil {
			return "", fmt.Errorf("put %s back as shipped: %w (your solution is saved in %s)", ed.File, err, e.SolutionFile())
		}
	}
	unhide(context.WithoutCancel(ctx), root, w.files())
	if err := w.forget(root); err != nil {
		return "", err
	}
	return e.SolutionFile(), markVerified(root, e.Name, digest)
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
