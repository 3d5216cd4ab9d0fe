package main

// These tests build the command and run it the way a learner does.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/icmd"

	"github.com/fencelab/fencelab/internal/course/drill"
)

// binDir holds the drill binary once a test has asked for it; TestMain
// removes it.
var binDir string

// build builds the drill binary once, for every test that runs it.
var build = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "drill-bin-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "drill")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// drillBinary returns the built drill command, failing t if it cannot be
// built.
func drillBinary(t testing.TB) string {
	t.Helper()
	bin, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// TestBinaryExitsTwoWithUsageWhenGivenNothing: no arguments is misuse,
// exit 2, usage on stderr, nothing on stdout.
func TestBinaryExitsTwoWithUsageWhenGivenNothing(t *testing.T) {
	t.Parallel()
	res := icmd.RunCmd(icmd.Command(drillBinary(t)))

	res.Assert(t, icmd.Expected{ExitCode: 2, Out: icmd.None})
	assert.Check(t, strings.HasPrefix(res.Stderr(), "usage: go run ./tools/drill <command>"), "stderr: %q", res.Stderr())
}

// TestBinaryApplyRefusesWithoutGit: on a machine without git, drill apply
// cannot tell whether the file holds the learner's uncommitted work. It
// refuses, exit 1, with one line saying the guard needs git, and leaves
// the tree alone.
func TestBinaryApplyRefusesWithoutGit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	assert.NilError(t, os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "testdata", "drill"))))
	// The fixture declares a module of its own; drill looks for the course's.
	assert.NilError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+drill.Module+"\n\ngo 1.26.0\n"), 0o644))
	target := filepath.Join(root, "internal", "counter", "counter.go")
	original, err := os.ReadFile(target)
	assert.NilError(t, err)
	noGit := t.TempDir() // an empty folder as the whole PATH

	res := icmd.RunCmd(icmd.Command(drillBinary(t), "apply", "ceiling-off-by-one"),
		icmd.Dir(root), icmd.WithEnv("PATH="+noGit))

	res.Assert(t, icmd.Expected{ExitCode: 1, Out: icmd.None,
		Err: "drill apply: the uncommitted-changes guard needs git, and git is not on PATH; " +
			"'go run ./tools/drill try ceiling-off-by-one' needs no git and never writes your files\n"})
	assert.Check(t, cmp.Equal(strings.Count(res.Stderr(), "\n"), 1), "drill apply without git must refuse in one line; got %q", res.Stderr())
	after, err := os.ReadFile(target)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(string(after), string(original)), "drill apply without git changed %s", target)
	_, err = os.Stat(filepath.Join(root, drill.StateDir))
	assert.Check(t, cmp.ErrorIs(err, os.ErrNotExist), "drill apply without git recorded an apply in %s", drill.StateDir)
}
