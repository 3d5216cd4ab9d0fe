package check

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// TestASampleCatchesAStoredVerdictThatLies: a stored "caught" under its
// true key, for a weakening the tests do not catch, is reused as it
// stands (a key cannot see a lie), until a sample judges it again: then
// the check fails and the sample names it. This is what CI's --sample is
// for.
func TestASampleCatchesAStoredVerdictThatLies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the fixture module; skipped with -short")
	}
	t.Parallel()
	root := t.TempDir()
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "drill"))
	assert.NilError(t, err)
	assert.NilError(t, os.CopyFS(root, os.DirFS(src)))
	// A weakening of ch03_green its test does not catch.
	survivor, err := os.ReadFile(filepath.Join(root, "extra", "label-ignored.txtar"))
	assert.NilError(t, err)
	assert.NilError(t, os.WriteFile(filepath.Join(root, "chapters", "ch03_green", weakening.Dir, "label-ignored.txtar"), survivor, 0o644))
	readme := filepath.Join(root, "chapters", "ch03_green", "README.md")
	text, err := os.ReadFile(readme)
	assert.NilError(t, err)
	assert.NilError(t, os.WriteFile(readme, append(text, "\n    go run ./tools/drill try label-ignored\n"...), 0o644))
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	ch, ok := cat.Chapter("ch03")
	assert.Assert(t, ok)
	chapters := []*weakening.Chapter{ch}

	// The lie: both weakenings caught, under the keys the engine computes.
	keys, err := carry(root, chapters, Reuse{Full: true})
	assert.NilError(t, err)
	lie := map[string]storedOK{
		"ceiling-ignored": {key: keys.wkeys["ch03_green/ceiling-ignored"], failed: []string{"TestCeilingHolds"}},
		"label-ignored":   {key: keys.wkeys["ch03_green/label-ignored"], failed: []string{"TestCeilingHolds"}},
	}
	assert.NilError(t, writeStored(root, "ch03_green", keys.keys["ch03_green"], []string{"TestCeilingHolds"}, lie))

	r := &variant.Runner{Root: root, Timeout: 3 * time.Second}
	t.Cleanup(func() { assert.Check(t, r.Close()) })
	trusted, err := Check(t.Context(), r, chapters, Options{Stored: &Reuse{}})
	assert.NilError(t, err)
	assert.Check(t, trusted.OK && trusted.Reused == 2, "without a sample the stored verdicts are reused as they stand")

	sampled, err := Check(t.Context(), r, chapters, Options{Stored: &Reuse{Sample: 2, Seed: 9}})
	assert.NilError(t, err)
	assert.Check(t, !sampled.OK, "a sampled verdict that is not caught any more fails the check")
	assert.Assert(t, sampled.Sample != nil)
	assert.Check(t, cmp.DeepEqual(sampled.Sample.Differ, []string{"ch03_green/label-ignored"}))
	assert.Check(t, cmp.Equal(sampled.Sample.Size, 2))
}
