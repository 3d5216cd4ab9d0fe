package exercise

// This file grades learners from their saved solutions alone, the way a
// fork's CI does. A scratch copy is made of the course: a pristine course
// tree given by the grader (--course), or else the learner's own tree
// with every file an exercise touches as shipped. Only the learner's
// solution files are read from the learner's tree. Each exercise is
// started in the copy, the solution applied to that starting point and
// verified from scratch. No record the learner writes is read, and with
// a course given, no test, harness or tool of the learner's runs.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Grade verdicts.
const (
	Verified = "verified" // the solution, applied to the starting point, is done
	Failed   = "failed"   // it is not done (Detail says why), or cannot be applied
	Missing  = "missing"  // no solution is saved
)

// GradeResult is one exercise's grade.
type GradeResult struct {
	Name    string  `json:"name"`
	Chapter string  `json:"chapter"`
	Kind    Kind    `json:"kind"`
	Verdict string  `json:"verdict"`
	Detail  string  `json:"detail"`
	Seconds float64 `json:"seconds"`
	// Output is, for a failed solution, what the failing tests printed,
	// cut to a readable length: what a CI log needs to tell why.
	Output string `json:"output,omitempty"`
}

// GradeOptions tune a grading.
type GradeOptions struct {
	// Runner returns the runner of variants for the module copy at root;
	// variant.New if nil.
	Runner func(root string) *variant.Runner
	// Only, if not empty, limits the grading to these exercises.
	Only []string
	// OnGraded, if set, sees each grade as it is reached.
	OnGraded func(GradeResult)
	// Course is the root of a pristine course tree to grade against; if
	// empty, the learner's own tree is the course (see ChangedCourseFiles
	// for how far that can be trusted).
	Course string
}

// Grade verifies every saved solution under set.Root from scratch and
// returns a grade per exercise, in list order. Once all are graded, each
// verified solution is marked verified in set.Root's state, so drill
// progress counts it. An error means the grading itself could not run, or
// was interrupted (ErrInterrupted), and then nothing is marked.
func Grade(ctx context.Context, set *Set, opts GradeOptions) ([]GradeResult, error) {
	g, err := NewGrader(ctx, opts.Course, set.Root, opts.Runner)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	out, err := g.Grade(ctx, set.Root, opts.Only, opts.OnGraded)
	if err != nil {
		return nil, err
	}
	return out, MarkVerified(set, out)
}

// Grader grades learners' solutions against one course, in one scratch
// copy of it that every learner shares (each exercise is reset after its
// grade).
type Grader struct {
	scratch string
	set     *Set // the exercises, read from the scratch copy
	r       *variant.Runner
}

// NewGrader copies the course for grading. course is a pristine course
// tree; if empty, fallback (a learner's tree) is copied with every file
// an exercise touches as shipped.
func NewGrader(ctx context.Context, course, fallback string, newRunner func(string) *variant.Runner) (*Grader, error) {
	src := course
	if src == "" {
		src = fallback
	}
	scratch, err := os.MkdirTemp("", "drill-grade-")
	if err != nil {
		return nil, err
	}
	g := &Grader{scratch: scratch}
	if err := copyCourse(ctx, src, scratch); err != nil {
		g.Close()
		return nil, err
	}
	cat, err := weakening.Load(scratch)
	if err == nil {
		g.set, err = Load(cat)
	}
	if err != nil {
		g.Close()
		return nil, fmt.Errorf("grade: the course at %s: %w", src, err)
	}
	if newRunner == nil {
		newRunner = variant.New
	}
	g.r = newRunner(scratch)
	return g, nil
}

// Set returns the course's exercises.
func (g *Grader) Set() *Set { return g.set }

// Close removes the scratch copy.
func (g *Grader) Close() {
	if g.r != nil {
		g.r.Close()
	}
	os.RemoveAll(g.scratch)
}

// Grade grades the solutions saved under learnerRoot, every exercise of
// the course or only those named, in list order.
func (g *Grader) Grade(ctx context.Context, learnerRoot string, only []string, onGraded func(GradeResult)) ([]GradeResult, error) {
	var out []GradeResult
	for _, e := range g.set.Exercises {
		if len(only) > 0 && !slices.Contains(only, e.Name) {
			continue
		}
		start := time.Now()
		res := GradeResult{Name: e.Name, Chapter: e.Chapter, Kind: e.Kind}
		var err error
		res.Verdict, res.Detail, res.Output, err = gradeOne(ctx, g.set, g.r, e, learnerRoot)
		if err != nil {
			return nil, err
		}
		res.Seconds = float64(int(time.Since(start).Seconds()*10+0.5)) / 10
		if onGraded != nil {
			onGraded(res)
		}
		out = append(out, res)
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	return out, nil
}

// MarkVerified marks every verified solution of graded verified in
// set.Root's state, once the whole grading is through: an interrupted
// grading marks nothing.
func MarkVerified(set *Set, graded []GradeResult) error {
	for _, g := range graded {
		if g.Verdict != Verified {
			continue
		}
		e, ok := set.Lookup(g.Name)
		if !ok {
			continue // an exercise of the course the learner's tree lacks
		}
		_, data, err := LoadSolution(set.Root, e)
		if err == nil {
			err = markVerified(set.Root, e.Name, Digest(data))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// outputLines is how many lines of the failing tests' output a failed
// grade carries.
const outputLines = 40

// gradeOne starts e in the scratch set, applies the learner's solution
// (read from learnerRoot) to that starting point and verifies it, then
// resets e.
func gradeOne(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, learnerRoot string) (verdict, detail, output string, err error) {
	sol, _, err := LoadSolution(learnerRoot, e)
	if errors.Is(err, ErrNoSolution) {
		return Missing, "no solution saved in " + e.SolutionFile(), "", nil
	}
	if err != nil {
		return Failed, err.Error(), "", nil
	}
	if _, err := Start(ctx, set, e); err != nil {
		if ctx.Err() != nil {
			return "", "", "", ErrInterrupted
		}
		return "", "", "", fmt.Errorf("grade %s: start it in the scratch copy: %w", e.Name, err)
	}
	defer func() {
		if _, rerr := Reset(context.WithoutCancel(ctx), set, e); rerr != nil && err == nil {
			err = fmt.Errorf("grade %s: reset it in the scratch copy: %w", e.Name, rerr)
		}
	}()
	if err := sol.Apply(set, e); err != nil {
		return Failed, err.Error(), "", nil
	}
	v, err := Verify(ctx, set, r, e, Options{})
	if err != nil {
		return "", "", "", err
	}
	if !v.Done {
		out := v.Output
		if out == "" {
			out = v.Message
		}
		return Failed, v.Reason, variant.FirstLines(out, outputLines, "\n"), nil
	}
	return Verified, "", "", nil
}

// copyCourse copies the module at src into dst, drill's state, git's
// folder, the saved solutions and learner test files left out, with
// every file an exercise touches as shipped (from src's git history where
// src holds another version).
func copyCourse(ctx context.Context, src, dst string) error {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch d.Name() {
			case ".git", StateDir, SolutionsDir:
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || isLearnerFile(d.Name()) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("grade: copy the course: %w", err)
	}
	shipped, err := LoadShipped(src)
	if err != nil {
		return err
	}
	for file := range shipped {
		data, err := shipped.Bytes(ctx, src, src, file)
		if err != nil {
			return fmt.Errorf("grade: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.FromSlash(file)), data, 0o644); err != nil {
			return err
		}
	}
	return StoreShipped(dst)
}

// StoreShipped keeps a copy of every shipped file of the tree under root,
// which must be as shipped, in its shipped store: a copy of the course
// without git history (a grading's scratch copy, a proof's) finds the
// shipped bytes there when it finishes or resets an exercise. A learner's
// tree never needs one: git holds them.
func StoreShipped(root string) error {
	shipped, err := LoadShipped(root)
	if err != nil {
		return err
	}
	for file, id := range shipped {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return err
		}
		if BlobID(data) != id {
			return fmt.Errorf("%s is not as shipped, so it cannot be stored as shipped", file)
		}
		if err := variant.WriteFile(statePath(root, shippedStore, id), data); err != nil {
			return err
		}
	}
	return nil
}
