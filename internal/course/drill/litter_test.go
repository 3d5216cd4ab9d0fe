package drill

import (
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestWhatARunLeavesInTheTreeIsSweptAndNamed(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	before := treeFiles(root)
	writeNew(t, root, "internal/counter/fence", "a database a mutant's test left")
	writeNew(t, root, "chapters/mutant-verdicts/counter.txt", "verdicts")
	removed := sweepLitter(root, before, "chapters/mutant-verdicts")
	assert.Check(t, cmp.DeepEqual(removed, []string{"internal/counter/fence"}))
	_, err := os.Stat(filepath.Join(root, "internal/counter/fence"))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "the litter is gone")
	_, err = os.Stat(filepath.Join(root, "chapters/mutant-verdicts/counter.txt"))
	assert.Check(t, err == nil, "the verdict files stay")
	_, err = os.Stat(filepath.Join(root, "internal/counter/counter.go"))
	assert.Check(t, err == nil, "the tree's own files stay")
}
