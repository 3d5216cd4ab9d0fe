package exercise_test

// This file keeps the proofs of the exercises between runs, as drill check
// and drill mutate keep their verdicts. An exercise's proof holds while
// nothing it is proved from has changed: its chapter's folder (the
// exercise's file, the chapter's tests, scripts, catalog and text), the
// code under internal/ (the mechanism, the runner and the course's
// engines), the fencelab command, the chapters' shared helpers, this
// proof, the module's requirements and the Go release. Each held proof
// is a line of chapters/exercise-proofs.txt: the exercise's name and its
// key. Only proofs that passed are kept, so an exercise that failed is
// proved again on every run.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// proofFile, relative to the module root, holds the proofs that passed.
const proofFile = "chapters/exercise-proofs.txt"

// proofVersion changes when the proof asks for more, so that no proof of
// an older one is reused.
const proofVersion = "fencelab-proof-1"

// proofTrees are the folders every exercise's proof is built from,
// besides its chapter's folder. Only their code counts, and this proof.
var proofTrees = []string{"internal", "tools/fencelab", "chapters/internal"}

// notProvedFrom is the folder of the proof trees no proof reaches: drill's
// command line, which calls the exercise engine but is not called by it.
var notProvedFrom = []string{"internal/course/drill"}

// proofCode reports whether a file of a proof tree counts: code, not its
// tests or texts, apart from this proof's own files.
func proofCode(rel string) bool {
	if strings.HasPrefix(rel, "internal/course/exercise/proof") {
		return true
	}
	return !strings.HasSuffix(rel, "_test.go") && !strings.HasSuffix(rel, ".md")
}

// proofKeys returns the key of every exercise of set, read from root.
func proofKeys(t *testing.T, root string, set *exercise.Set) map[string]string {
	t.Helper()
	shared := sha256.New()
	fmt.Fprintf(shared, "%s %s\n", proofVersion, runtime.Version())
	assert.NilError(t, variant.HashFiles(shared, root, []string{"go.mod", "go.sum", exercise.ShippedFile}))
	for _, dir := range proofTrees {
		files, err := variant.ListFiles(root, dir, notProvedFrom, proofCode)
		assert.NilError(t, err)
		assert.NilError(t, variant.HashFiles(shared, root, files))
	}
	sum := shared.Sum(nil)

	chapters := map[string]string{}
	keys := map[string]string{}
	for _, e := range set.Exercises {
		ch, ok := chapters[e.Chapter]
		if !ok {
			dir := path.Join(weakening.ChaptersDir, e.Chapter)
			files, err := variant.ListFiles(root, dir, []string{path.Join(dir, exercise.SolutionsDir)}, nil)
			assert.NilError(t, err)
			h := sha256.New()
			fmt.Fprintf(h, "shared %x\n", sum)
			assert.NilError(t, variant.HashFiles(h, root, files))
			ch = hex.EncodeToString(h.Sum(nil))
			chapters[e.Chapter] = ch
		}
		h := sha256.New()
		fmt.Fprintf(h, "chapter %s\nexercise %s\n", ch, e.Name)
		keys[e.Name] = hex.EncodeToString(h.Sum(nil)[:12])
	}
	return keys
}

// readProofs returns the stored proofs under root: exercise name -> key.
// A missing file holds none; a malformed line fails the test.
func readProofs(t *testing.T, root string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(proofFile)))
	if os.IsNotExist(err) {
		return map[string]string{}
	}
	assert.NilError(t, err)
	stored := map[string]string{}
	for n, f := range variant.Records(data) {
		assert.Assert(t, len(f) == 2, "%s:%d: want an exercise and its key, got %q", proofFile, n, strings.Join(f, " "))
		stored[f[0]] = f[1]
	}
	return stored
}

// writeProofs writes the held proofs, one line each in the order of set.
func writeProofs(t *testing.T, root string, set *exercise.Set, held map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# The exercises whose proof passed, each with the key of what it was proved\n" +
		"# from (make prove-exercises writes this file; commit it with the change).\n" +
		"# A proof is reused while its key holds. See internal/course/exercise/proofs_test.go.\n")
	for _, e := range set.Exercises {
		if key, ok := held[e.Name]; ok {
			fmt.Fprintf(&b, "%s %s\n", e.Name, key)
		}
	}
	assert.NilError(t, variant.WriteFile(filepath.Join(root, filepath.FromSlash(proofFile)), []byte(b.String())))
}

// TestAStoredProofHoldsOnlyWhileWhatItWasProvedFromHolds: an exercise's
// proof key changes when its chapter or the code under internal/ changes,
// and only then: another chapter, a mechanism package's own test or a
// saved solution leaves it as it was. So a reused proof is never stale.
func TestAStoredProofHoldsOnlyWhileWhatItWasProvedFromHolds(t *testing.T) {
	_, root, set := loadCopy(t)
	assert.Assert(t, len(set.Exercises) > 1)
	first := set.Exercises[0]
	before := proofKeys(t, root, set)

	appendTo := func(rel string) {
		t.Helper()
		name := filepath.Join(root, filepath.FromSlash(rel))
		assert.NilError(t, os.MkdirAll(filepath.Dir(name), 0o755))
		f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		assert.NilError(t, err)
		_, err = f.WriteString("\n// changed\n")
		assert.NilError(t, err)
		assert.NilError(t, f.Close())
	}
	changed := func() (names []string) {
		t.Helper()
		after := proofKeys(t, root, set)
		for _, e := range set.Exercises {
			if after[e.Name] != before[e.Name] {
				names = append(names, e.Name)
			}
		}
		before = after
		return names
	}
	chapter := path.Join(weakening.ChaptersDir, first.Chapter)
	var ofChapter []string
	for _, e := range set.Exercises {
		if e.Chapter == first.Chapter {
			ofChapter = append(ofChapter, e.Name)
		}
	}

	appendTo(path.Join(chapter, exercise.SolutionsDir, "someone.txtar"))
	assert.Check(t, len(changed()) == 0, "a saved solution is the learner's, not what an exercise is proved from")
	appendTo("internal/token/token_test.go")
	assert.Check(t, len(changed()) == 0, "a mechanism package's own test is never built into a chapter")
	appendTo(path.Join(chapter, "README.md"))
	assert.DeepEqual(t, changed(), ofChapter)
	appendTo("internal/token/token.go")
	assert.Check(t, len(changed()) == len(set.Exercises), "the mechanism changed, yet some stored proofs would be reused")
}
