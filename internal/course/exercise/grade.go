package exercise

// This file grades a learner from their saved solutions alone, the way a
// fork's CI does: in a scratch copy of the module with every file the
// exercises touch as shipped, each exercise is started, its solution
// applied and verified from scratch. No record the learner writes is
// read, so a hand-edited one changes nothing.

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
	Verified = "verified" // the solution, applied to the shipped code, is done
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
}

// Grade verifies every saved solution of set from scratch and returns a
// grade per exercise, in list order. Once all are graded, each verified
// solution is marked verified in set.Root's state, so drill progress
// counts it. An error means the grading itself could not run, or was
// interrupted (ErrInterrupted), and then nothing is marked.
func Grade(ctx context.Context, set *Set, opts GradeOptions) ([]GradeResult, error) {
	scratch, err := os.MkdirTemp("", "drill-grade-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	if err := copyShipped(ctx, set, scratch); err != nil {
		return nil, err
	}
	cat, err := weakening.Load(scratch)
	if err != nil {
		return nil, err
	}
	copySet, err := Load(cat)
	if err != nil {
		return nil, err
	}
	newRunner := opts.Runner
	if newRunner == nil {
		newRunner = variant.New
	}
	r := newRunner(scratch)
	defer r.Close()
	shipped, err := LoadShipped(scratch)
	if err != nil {
		return nil, err
	}
	var out []GradeResult
	for _, e := range copySet.Exercises {
		if len(opts.Only) > 0 && !slices.Contains(opts.Only, e.Name) {
			continue
		}
		start := time.Now()
		g := GradeResult{Name: e.Name, Chapter: e.Chapter, Kind: e.Kind}
		g.Verdict, g.Detail, err = gradeOne(ctx, copySet, r, e, shipped, set.Root)
		if err != nil {
			return nil, err
		}
		g.Seconds = float64(int(time.Since(start).Seconds()*10+0.5)) / 10
		if opts.OnGraded != nil {
			opts.OnGraded(g)
		}
		out = append(out, g)
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	return out, markAllVerified(set, out)
}

// markAllVerified marks every verified solution of graded verified in
// set.Root's state, once the whole grading is through: an interrupted
// grading marks nothing.
func markAllVerified(set *Set, graded []GradeResult) error {
	for _, g := range graded {
		if g.Verdict != Verified {
			continue
		}
		e, _ := set.Lookup(g.Name)
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

// gradeOne starts e in the scratch set, applies the learner's solution
// (read from learnerRoot, the real tree) and verifies it, then resets e.
func gradeOne(ctx context.Context, set *Set, r *variant.Runner, e *Exercise, shipped Shipped, learnerRoot string) (verdict, detail string, err error) {
	sol, _, err := LoadSolution(learnerRoot, e)
	if errors.Is(err, ErrNoSolution) {
		return Missing, "no solution saved in " + e.SolutionFile(), nil
	}
	if err != nil {
		return Failed, err.Error(), nil
	}
	if _, err := Start(ctx, set, e); err != nil {
		if ctx.Err() != nil {
			return "", "", ErrInterrupted
		}
		return "", "", fmt.Errorf("grade %s: start it in the scratch copy: %w", e.Name, err)
	}
	defer func() {
		if _, rerr := Reset(context.WithoutCancel(ctx), set, e); rerr != nil && err == nil {
			err = fmt.Errorf("grade %s: reset it in the scratch copy: %w", e.Name, rerr)
		}
	}()
	if err := sol.Apply(ctx, set, e, shipped, learnerRoot); err != nil {
		return Failed, err.Error(), nil
	}
	v, err := Verify(ctx, set, r, e, Options{})
	if err != nil {
		return "", "", err
	}
	if !v.Done {
		return Failed, v.Reason, nil
	}
	return Verified, "", nil
}

// copyShipped copies the module at set.Root into dst, drill's state, git's
// folder and the saved solutions left out, with every file an exercise
// touches as shipped.
func copyShipped(ctx context.Context, set *Set, dst string) error {
	src := set.Root
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
		return fmt.Errorf("grade: copy the module: %w", err)
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
	return nil
}
