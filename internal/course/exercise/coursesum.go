package exercise

// This file knows the course as released: chapters/course.sum holds the
// git blob id of every file a grade builds from (the mechanism, the
// runner, the chapters' tests, scripts and data, the harness, drill, the
// module's requirements). A learner's fork should change none of them:
// its work is its saved solutions. A grade run without a pristine course
// (drill grade without --course) compares the fork's files with this list
// and names each one that differs, so a fork that edited a test, the
// harness or drill to pass is told apart. The list lives in the fork too,
// so a determined learner can rewrite it; a grade with --course reads no
// file of the fork but its solutions, and is the one to trust.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// CourseSumFile is the list of course files, relative to the module root.
const CourseSumFile = "chapters/course.sum"

// ErrNoCourseSum is returned (wrapped) when a tree has no course list.
var ErrNoCourseSum = errors.New("exercise: no " + CourseSumFile)

// courseRoots are the files and folders of the module a grade builds from.
var courseRoots = []string{"go.mod", "go.sum", "Makefile", "chapters", "internal", "testdata", "tools"}

// notCourse are folders and files under courseRoots that decide no grade:
// the course's own verdicts (read by check and mutate, never by grade), a
// separate module, and this list itself.
var notCourse = []string{
	"chapters/mutant-verdicts/", "chapters/weakening-verdicts/", "chapters/excused-mutants/",
	"chapters/exercise-proofs.txt", CourseSumFile, "tools/benchpeers/",
}

// isCourseFile reports whether rel, a slash-separated path under the
// module root, is a course file: texts, the learner's own files and
// build litter aside.
func isCourseFile(rel string) bool {
	base := path.Base(rel)
	switch {
	case strings.HasSuffix(base, ".md"), strings.HasSuffix(base, ".test"), strings.HasSuffix(base, ".out"),
		isLearnerFile(base):
		return false
	}
	for _, n := range notCourse {
		if rel == n || (strings.HasSuffix(n, "/") && strings.HasPrefix(rel, n)) {
			return false
		}
	}
	// A chapter's saved solutions are the learner's.
	parts := strings.Split(rel, "/")
	return !(len(parts) >= 3 && parts[0] == "chapters" && parts[2] == SolutionsDir)
}

// CourseSumOf returns the course list of the tree under root as it is now.
func CourseSumOf(root string) (Shipped, error) {
	s := Shipped{}
	for _, top := range courseRoots {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == filepath.Join(root, top) {
				return nil
			}
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == StateDir || d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if !d.Type().IsRegular() || !isCourseFile(rel) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s[rel] = BlobID(data)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list the course files: %w", err)
		}
	}
	return s, nil
}

// LoadCourseSum reads root's course list.
func LoadCourseSum(root string) (Shipped, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(CourseSumFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s", ErrNoCourseSum, root)
	}
	if err != nil {
		return nil, fmt.Errorf("read the course list: %w", err)
	}
	return parseSum(CourseSumFile, data)
}

// FormatCourseSum returns s as CourseSumFile holds it.
func FormatCourseSum(s Shipped) []byte {
	var b bytes.Buffer
	b.WriteString("# Every file of the course a grade builds from, as released: its git blob id,\n")
	b.WriteString("# then its path. drill grade, run without --course, names each file of a\n")
	b.WriteString("# learner's tree that differs from this list. After changing the course, write\n")
	b.WriteString("# it again with:\n")
	b.WriteString("#   go test ./internal/course/exercise/ -run TestCourseListMatchesTheTree -update\n")
	for _, f := range s.files() {
		fmt.Fprintf(&b, "%s  %s\n", s[f], f)
	}
	return b.Bytes()
}

// ChangedCourseFiles returns the course files of the tree under root that
// differ from its course list: changed, gone, or added, sorted.
func ChangedCourseFiles(root string) ([]string, error) {
	want, err := LoadCourseSum(root)
	if err != nil {
		return nil, err
	}
	got, err := CourseSumOf(root)
	if err != nil {
		return nil, err
	}
	return changed(want, got), nil
}
