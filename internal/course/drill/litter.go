package drill

// This file keeps mutate from leaving anything in the tree but its
// verdict files. A mutant can send a test's files where the test never
// would (a database named by a relative path lands in the package's own
// folder), and a judge runs thousands of such tests. What a run adds to
// the tree under internal/ or chapters/ is removed once it ends, and
// named, so the test that wrote it can be found.

import (
	"io"
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

// sweepLitter looks at the files under root that are not in before and
// not under keep (the verdict folder). Those that are SQLite databases, or
// a database's journal, are what a mutant's test leaves when it sends a
// database where the test never would: it removes them. Any other file is
// left where it is and returned in appeared: a person may have written it
// while the run ran, and only they can say. Both lists are relative to
// root and sorted.
func sweepLitter(root string, before map[string]bool, keep string) (removed, appeared []string) {
	for p := range treeFiles(root) {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if before[p] || strings.HasPrefix(rel, keep+"/") {
			continue
		}
		if !isDatabaseLitter(p) {
			appeared = append(appeared, rel)
			continue
		}
		if os.Remove(p) == nil {
			removed = append(removed, rel)
		}
	}
	slices.Sort(removed)
	slices.Sort(appeared)
	return removed, appeared
}

// sqliteHeader is how every SQLite database file begins.
const sqliteHeader = "SQLite format 3\x00"

// isDatabaseLitter reports whether the file at p is a SQLite database, or
// by its name one of a database's journals (-wal, -shm, -journal), which
// need not begin with the header.
func isDatabaseLitter(p string) bool {
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if strings.HasSuffix(p, suffix) {
			return true
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, _ := io.ReadFull(f, head)
	return string(head[:n]) == sqliteHeader
}
