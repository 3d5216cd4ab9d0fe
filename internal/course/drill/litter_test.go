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
	writeNew(t, root, "internal/counter/fence", sqliteHeader+"a database a mutant's test left")
	writeNew(t, root, "internal/counter/fence-wal", "its write-ahead log")
	writeNew(t, root, "internal/counter/new_test.go", "package counter // a test a person wrote during the run")
	writeNew(t, root, "chapters/mutant-verdicts/counter.txt", "verdicts")

	removed, appeared := sweepLitter(root, before, "chapters/mutant-verdicts")

	assert.Check(t, cmp.DeepEqual(removed, []string{"internal/counter/fence", "internal/counter/fence-wal"}),
		"a database and its journal that appeared during the run are litter")
	assert.Check(t, cmp.DeepEqual(appeared, []string{"internal/counter/new_test.go"}),
		"any other file that appeared is named, not removed")
	_, err := os.Stat(filepath.Join(root, "internal/counter/fence"))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "the litter is gone")
	_, err = os.Stat(filepath.Join(root, "internal/counter/new_test.go"))
	assert.Check(t, err == nil, "a file a person may have written during the run is kept")
	_, err = os.Stat(filepath.Join(root, "chapters/mutant-verdicts/counter.txt"))
	assert.Check(t, err == nil, "the verdict files stay")
	_, err = os.Stat(filepath.Join(root, "internal/counter/counter.go"))
	assert.Check(t, err == nil, "the tree's own files stay")
}
