package exercise_test

// The repository's proof of every exercise, run on a copy of the module
// so the working tree is never touched: each exercise starts red for the
// reason it states; its reference repair (the shipped code) makes it done,
// which saves it as a solution and leaves the copy as shipped; a test
// exercise's reference tests (the chapter's own, withheld) score 100%
// while its deliberately weak tests score below; and reset leaves the
// copy byte for byte as shipped. It runs the go command many times, so it
// runs only with -proof (make prove-exercises).

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

var (
	proof     = flag.Bool("proof", false, "prove every exercise of the repository on a copy of it (slow: runs go test many times)")
	proofOnly = flag.String("proof.run", "", "prove only the exercises whose name contains this")
	// A proof that passed is kept in chapters/exercise-proofs.txt
	// (proofs_test.go) and reused while what it was proved from holds.
	// The maintainer's make prove-exercises proves what changed and
	// updates the file; CI proves what changed and a few reused proofs
	// again at random.
	proofFull   = flag.Bool("proof.full", false, "prove every exercise, reusing no stored proof")
	proofUpdate = flag.Bool("proof.update", false, "write the proofs that hold to "+proofFile)
	proofSample = flag.Int("proof.sample", 0, "prove again this many reused proofs, chosen at random")
	proofSeed   = flag.Uint64("proof.seed", 0, "the seed of -proof.sample's choice (0: a fresh one, printed)")
)

// chosen splits the exercises of set whose name contains -proof.run into
// those to prove (no stored proof holds for them, or -proof.full) and
// those whose stored proof is reused; -proof.sample of the reused are
// proved again, chosen at random.
func chosen(t *testing.T, set *exercise.Set, keys, stored map[string]string) []*exercise.Exercise {
	var prove, reused []*exercise.Exercise
	matched := 0
	for _, e := range set.Exercises {
		if strings.Contains(e.Name, *proofOnly) {
			matched++
		}
		switch {
		case !strings.Contains(e.Name, *proofOnly):
		case !*proofFull && stored[e.Name] == keys[e.Name]:
			reused = append(reused, e)
		default:
			prove = append(prove, e)
		}
	}
	// A filter that names no exercise would prove nothing and pass: a typo
	// must not read as a proof.
	assert.Assert(t, matched > 0, "-proof.run=%q matches no exercise; the names: go run ./tools/drill exercises", *proofOnly)
	again, seed := variant.Sample(reused, *proofSample, *proofSeed)
	t.Logf("proving %d exercises whose proof is not stored or no longer holds; reusing %d stored proofs, "+
		"%d of them proved again (-proof.seed %d)", len(prove), len(reused), len(again), seed)
	return append(prove, again...)
}

// copyModule copies what the chapters' tests need of the module at root
// into a fresh folder and returns it.
func copyModule(t *testing.T, root string) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum", "chapters", "internal", "testdata"} {
		src := filepath.Join(root, name)
		info, err := os.Stat(src)
		assert.NilError(t, err)
		if !info.IsDir() {
			data, err := os.ReadFile(src)
			assert.NilError(t, err)
			assert.NilError(t, os.WriteFile(filepath.Join(dst, name), data, 0o644))
			continue
		}
		assert.NilError(t, os.CopyFS(filepath.Join(dst, name), os.DirFS(src)))
	}
	// The copy has no git history to take the shipped files back from.
	assert.NilError(t, exercise.StoreShipped(dst))
	return dst
}

// loadCopy returns the repository's root, a fresh copy of its module
// (copyModule) and the exercises loaded from the copy.
func loadCopy(t *testing.T) (repo, root string, set *exercise.Set) {
	t.Helper()
	repo, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	root = copyModule(t, repo)
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	set, err = exercise.Load(cat)
	assert.NilError(t, err)
	return repo, root, set
}

// digests returns the digest of every file under root, drill's state
// folder aside.
func digests(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == exercise.StateDir || d.Name() == exercise.SolutionsDir {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[rel] = exercise.Digest(data)
		return nil
	})
	assert.NilError(t, err)
	return out
}

func TestEveryExerciseStartsRedAndItsReferenceIsDone(t *testing.T) {
	if !*proof {
		t.Skip("the full proof of every exercise runs with -proof (make prove-exercises)")
	}
	repo, root, set := loadCopy(t)
	for _, b := range set.Broken {
		t.Errorf("%s: %v", b.Path, b.Err)
	}
	r := &variant.Runner{Root: root, Jobs: 2}
	t.Cleanup(func() { assert.Check(t, r.Close()) })
	opts := exercise.Options{}
	shipped := digests(t, root)

	keys := proofKeys(t, repo, set)
	stored := readProofs(t, repo)
	held := map[string]string{}
	for _, e := range set.Exercises {
		if stored[e.Name] == keys[e.Name] {
			held[e.Name] = keys[e.Name] // every stored proof that holds, whether or not it runs now
		}
	}
	if *proofUpdate {
		defer func() { writeProofs(t, repo, set, held) }()
	}

	for _, e := range chosen(t, set, keys, stored) {
		passed := t.Run(e.Name, func(t *testing.T) {
			start := time.Now()
			var reference []byte
			if e.Kind == exercise.Test {
				var err error
				reference, err = e.Reference(root)
				assert.NilError(t, err)
			}
			w, err := exercise.Start(t.Context(), set, e)
			assert.NilError(t, err, "start")
			defer func() {
				_, err := exercise.Reset(t.Context(), set, e)
				assert.NilError(t, err, "reset")
				assert.DeepEqual(t, digests(t, root), shipped)
				t.Logf("%s: proved in %.0fs", e.Name, time.Since(start).Seconds())
			}()

			red, err := exercise.Verify(t.Context(), set, r, e, opts)
			assert.NilError(t, err, "verify after start")
			assert.Assert(t, !red.Done, "%s is done as soon as it starts", e.Name)
			assert.Check(t, red.Matches(), "%s starts red, but not for its stated reason /%s/: %s\n%s", e.Name, e.Expect, red.Reason, red.Message+red.Output)

			switch e.Kind {
			case exercise.Fix, exercise.Build:
				ed := w.Edits[0]
				assert.NilError(t, os.WriteFile(filepath.Join(root, ed.File), ed.Original, 0o644))
				done, err := exercise.Verify(t.Context(), set, r, e, opts)
				assert.NilError(t, err, "verify after the reference repair")
				assert.Check(t, done.Done, "the reference repair of %s (the shipped %s) is not done: %s\n%s", e.Name, ed.File, done.Reason, done.Message)
				assert.Check(t, cmp.Equal(done.Saved, e.SolutionFile()), "a done exercise saves its solution")
			case exercise.Test:
				learner := filepath.Join(root, e.LearnerFile())
				assert.NilError(t, os.WriteFile(learner, reference, 0o644))
				full, err := exercise.Verify(t.Context(), set, r, e, opts)
				assert.NilError(t, err, "verify the reference tests")
				assert.Check(t, full.Done && full.Score != nil && full.Score.Full(),
					"the chapter's own tests (%s) do not score 100%%: %s\n%s", strings.Join(e.Withhold, ", "), full.Reason, full.Message)
				if full.Score != nil {
					assert.Check(t, cmp.Equal(full.Score.Chaffs, len(e.Chaffs)))
				}

				assert.DeepEqual(t, digests(t, root), shipped)
				_, err = exercise.Start(t.Context(), set, e)
				assert.NilError(t, err, "start again")
				assert.NilError(t, os.WriteFile(learner, []byte(e.Weak), 0o644))
				weak, err := exercise.Verify(t.Context(), set, r, e, opts)
				assert.NilError(t, err, "verify the weak tests")
				assert.Assert(t, weak.Score != nil, "the weak tests of %s do not pass on the shipped mechanism: %s\n%s", e.Name, weak.Reason, weak.Message)
				assert.Check(t, !weak.Done && weak.Score.Caught < weak.Score.Chaffs,
					"the weak tests of %s score %d of %d: grading cannot tell them from good ones", e.Name, weak.Score.Caught, weak.Score.Chaffs)
				t.Logf("%s: reference %d/%d, weak %d/%d", e.Name, full.Score.Caught, full.Score.Chaffs, weak.Score.Caught, weak.Score.Chaffs)
			}
		})
		if passed {
			held[e.Name] = keys[e.Name]
		} else {
			delete(held, e.Name) // a reused proof proved again that fails is not held
		}
	}
}
