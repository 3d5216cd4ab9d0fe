package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestBinaryExitsTwoWithUsageWhenGivenNothing builds the command and runs
// it the way a learner does: no arguments is misuse, exit 2, usage on
// stderr, nothing on stdout.
func TestBinaryExitsTwoWithUsageWhenGivenNothing(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "drill")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	assert.NilError(t, err, "go build: %s", out)

	cmd := exec.Command(bin)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	assert.Assert(t, errors.As(err, &exit), "drill with no arguments: %v; want exit status 2", err)
	assert.Check(t, cmp.Equal(exit.ExitCode(), 2))
	assert.Check(t, cmp.Equal(stdout.String(), ""))
	assert.Check(t, strings.HasPrefix(stderr.String(), "usage: go run ./tools/drill <command>"), "stderr: %q", stderr.String())
}
