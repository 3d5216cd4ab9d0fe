package exercise

// This file tells what the learner changed: the digests of the
// mechanism's files and the chapter's tests, taken when an exercise
// starts, against the files as they are when it is graded.

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// snapshot returns the digest of every non-test .go file under internal/
// (the course tooling in internal/course aside: it grades, it is not
// graded) and of every test file of chapter (learner files aside), by path
// relative to root.
func snapshot(root, chapter string) (map[string]string, error) {
	out := map[string]string{}
	add := func(abs string) error {
		data, err := os.ReadFile(abs)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = Digest(data)
		return nil
	}
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == filepath.Join(root, "internal", "course") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			return add(p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	tests, err := filepath.Glob(filepath.Join(root, "chapters", chapter, "*_test.go"))
	if err != nil {
		return nil, err
	}
	for _, p := range tests {
		if !isLearnerFile(filepath.Base(p)) {
			if err := add(p); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// changed returns the files whose digest differs between then and now,
// or that only one of them has, sorted.
func changed(then, now map[string]string) []string {
	var out []string
	for f, d := range then {
		if now[f] != d {
			out = append(out, f)
		}
	}
	for f := range now {
		if _, ok := then[f]; !ok {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
