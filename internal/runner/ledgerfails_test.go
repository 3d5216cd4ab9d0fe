package runner_test

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// TestAnExperimentWhoseLedgerCannotBeMadeFails: every command, given a
// run directory where no ledger can be made (the path names a file, not a
// directory), returns an error saying so (the frame then prints no
// result and exits 1): it never goes on as if its ledger were there, and
// never panics.
func TestAnExperimentWhoseLedgerCannotBeMadeFails(t *testing.T) {
	t.Parallel()
	for _, cmd := range runner.Commands {
		if slices.Contains(carriedByTheCompanion, cmd.Name) {
			continue // its store lives in etcd's companion; chapter 10 tests it
		}
		t.Run(cmd.Name, func(t *testing.T) {
			t.Parallel()
			notADir := filepath.Join(t.TempDir(), "file")
			assert.NilError(t, os.WriteFile(notADir, nil, 0o600))
			fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
			exp := cmd.New(fs)
			assert.NilError(t, fs.Parse(nil))
			assert.NilError(t, exp.Validate())

			result, err := exp.Run(t.Context(), cli.Env{Dir: notADir, Stderr: io.Discard})

			assert.Assert(t, err != nil, "fencelab %s ran in a directory that is a file and reported no failure (result %v)", cmd.Name, result)
		})
	}
}
