package main

// This test keeps the maintainer's guide, CONTRIBUTING.md, true to the
// tree: every repository path, make target, drill command and test it
// names must exist, so a recipe cannot send a maintainer to a file or a
// command that is gone.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/course/drill"
)

var (
	// codeSpan is text between backquotes.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// repoPath is a span that names a repository path.
	repoPath = regexp.MustCompile(`^(chapters|internal|tools|testdata|\.ci)/[A-Za-z0-9_./<>*-]*$`)
	// makeTarget is "make TARGET".
	makeTarget = regexp.MustCompile(`\bmake ([a-z][a-z0-9-]*)`)
	// drillCommand is "go run ./tools/drill COMMAND".
	drillCommand = regexp.MustCompile(`go run \./tools/drill ([a-z]+)`)
	// testName is a Go test's name.
	testName = regexp.MustCompile(`\bTest[A-Z][A-Za-z0-9]*\b`)
)

func TestContributingRecipesNameWhatExists(t *testing.T) {
	t.Parallel()
	root, err := drill.FindRoot(".")
	assert.NilError(t, err)
	guide, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	assert.NilError(t, err)
	text := string(guide)

	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		p := strings.TrimSuffix(m[1], "/")
		if !repoPath.MatchString(p) || strings.ContainsAny(p, "<>*") || strings.Contains(p, "...") ||
			strings.Contains(p, "NN") || strings.Contains(p, "NAME") {
			continue // not a path, or a pattern with placeholders
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("CONTRIBUTING.md names %s, which does not exist", p)
		}
	}

	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	assert.NilError(t, err)
	var spans strings.Builder
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		spans.WriteString(m[1] + "\n")
	}
	for _, m := range makeTarget.FindAllStringSubmatch(spans.String(), -1) {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(m[1]) + `:`).Match(makefile) {
			t.Errorf("CONTRIBUTING.md names make %s, which the Makefile does not define", m[1])
		}
	}

	var usage strings.Builder
	(&drill.Tool{Stdout: &usage, Stderr: &usage}).Run(t.Context(), []string{"help"})
	for _, m := range drillCommand.FindAllStringSubmatch(text, -1) {
		if !strings.Contains(usage.String(), "  "+m[1]+" ") {
			t.Errorf("CONTRIBUTING.md names drill %s, which is no drill command", m[1])
		}
	}

	tests := testsIn(t, root)
	for _, name := range testName.FindAllString(text, -1) {
		switch name {
		case "TestMain", "TestScripts", "TestName", "TestStaleHolderCannotCompleteAfterTakeover":
			continue // the harness's own, a placeholder, and the guide's example of a good name
		}
		if !tests[name] {
			t.Errorf("CONTRIBUTING.md names %s, which is no test of the repository", name)
		}
	}
}

// testsIn returns the name of every top-level test function in the
// repository's test files.
func testsIn(t *testing.T, root string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
				out[fd.Name.Name] = true
			}
		}
		return nil
	})
	assert.NilError(t, err)
	return out
}
