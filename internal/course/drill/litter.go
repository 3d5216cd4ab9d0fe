package drill

// This file keeps mutate from leaving anything in the tree but its
// verdict files. A mutant can send a test's files where the test never
// would (a database named by a relative path lands in the package's own
// folder), and a judge runs thousands of such tests. What a run adds to
// the tree under internal/ or chapters/ is removed once it ends, and
// named, so the test that wrote it can be found.

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// litterRoots are the folders a test run could write into by mistake.
var litterRoots = []string{"internal", "chapters"}

// treeFiles lists the regular files under root's litterRoots.
func treeFiles(root string) map[string]bool {
	files := map[string]bool{}
	for _, top := range litterRoots {
		_ = filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files[p] = true
			}
			return nil
		})
	}
	return files
}

// sweepLitter removes the files under root that are not in before and
// not under keep (the verdict folder), and returns them relative to root.
func sweepLitter(root string, before map[string]bool, keep string) []string {
	var removed []string
	for p := range treeFiles(root) {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if before[p] || strings.HasPrefix(rel, keep+"/") {
			continue
		}
		if os.Remove(p) == nil {
			removed = append(removed, rel)
		}
	}
	slices.Sort(removed)
	return removed
}
