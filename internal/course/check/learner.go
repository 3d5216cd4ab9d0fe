package check

// This file tells a learner's tests from the course's: a test exercise's
// learner writes theirs in a file named by LearnerFiles. They are the
// learner's work, graded by drill grade, so the check never holds them to
// the course's rules (every test seen failing under some weakening).

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// LearnerFiles is the pattern of a learner's test file's name.
const LearnerFiles = "learner_*_test.go"

// learnerTests returns the top-level tests declared in chapter's learner
// files under root.
func learnerTests(root, chapter string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(root, weakening.ChaptersDir, chapter, LearnerFiles))
	if err != nil {
		return nil, err
	}
	var tests []string
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			continue // it does not build: the baseline says so
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				tests = append(tests, fd.Name.Name)
			}
		}
	}
	return tests, nil
}
