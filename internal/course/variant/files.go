package variant

// This file lists and hashes the files a stored verdict rests on: check
// and mutate both key their verdicts by what their binaries are built
// from.

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// ListFiles returns, relative to root, slash-separated and sorted, every
// regular file under dir (relative to root) that keep keeps, leaving out
// the folders skip names (relative to root). A missing dir holds none;
// keep nil keeps every file.
func ListFiles(root, dir string, skip []string, keep func(rel string) bool) ([]string, error) {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			for _, s := range skip {
				if rel == s {
					return filepath.SkipDir
				}
			}
		case d.Type().IsRegular() && (keep == nil || keep(rel)):
			files = append(files, rel)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// HashFiles writes each file's name and the SHA-256 of its contents to w,
// a line each, in the order given.
func HashFiles(w io.Writer, root string, files []string) error {
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s %x\n", f, sha256.Sum256(data))
	}
	return nil
}
