package exercise

// This file is the learner's own test file of a test exercise: where it
// lives, what it holds when the exercise starts, and the tests in it.

import (
	"fmt"
	"go/ast"
	"path"
	"strings"
	"unicode"

	"github.com/fencelab/fencelab/internal/course/check"
)

// learnerPrefix starts the name of every learner test file (see
// check.LearnerFiles). While an exercise is worked on, .gitignore keeps
// the file out of git; once it is done, it moves into the saved solution.
const learnerPrefix = "learner_"

// LearnerFile returns the learner test file of test exercise e, relative
// to the module root: chapters/<chapter>/learner_<name>_test.go.
func (e *Exercise) LearnerFile() string {
	return "chapters/" + e.Chapter + "/" + learnerPrefix + strings.ReplaceAll(e.Name, "-", "_") + "_test.go"
}

// isLearnerFile reports whether a file's base name is a learner test file.
func isLearnerFile(base string) bool {
	ok, _ := path.Match(check.LearnerFiles, base)
	return ok
}

// skeletonTest is the name of the test the skeleton declares:
// test-exact-token becomes TestLearnerExactToken.
func (e *Exercise) skeletonTest() string {
	var b strings.Builder
	b.WriteString("TestLearner")
	for _, w := range strings.Split(strings.TrimPrefix(e.Name, string(Test)+"-"), "-") {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// skeleton is the learner file a test exercise starts with: the property
// in words, where to grade it, and one test that fails until it is
// written, so the chapter is red while the exercise is worked on.
func (e *Exercise) skeleton(pkg string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	fmt.Fprintf(&b, "// Exercise %s: %s\n//\n", e.Name, e.Summary)
	fmt.Fprintf(&b, "// The property: %s\n//\n", e.Property)
	b.WriteString("// Write tests (func TestXxx(t *testing.T)) in this file. They must pass\n")
	b.WriteString("// against the shipped mechanism and fail against every broken copy of it\n")
	b.WriteString("// drill grades them with. While you work, the chapter's own tests for this\n")
	fmt.Fprintf(&b, "// property (%s) are withheld. Grade your tests with:\n", strings.Join(e.Withhold, ", "))
	b.WriteString("//\n//\tgo run ./tools/drill verify\n\n")
	b.WriteString("import \"testing\"\n\n")
	fmt.Fprintf(&b, "func %s(t *testing.T) {\n", e.skeletonTest())
	fmt.Fprintf(&b, "\tt.Fatal(%q)\n}\n", "not written yet: "+e.Property)
	return []byte(b.String())
}

// learnerTests returns the top-level tests src declares, in order. An
// error means src does not parse; the learner sees it as the go command
// would say it.
func learnerTests(file string, src []byte) ([]string, error) {
	_, f, err := parseGo(file, src)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if ok && fd.Recv == nil && testName.MatchString(fd.Name.Name) && fd.Name.Name != "TestMain" {
			names = append(names, fd.Name.Name)
		}
	}
	return names, nil
}
