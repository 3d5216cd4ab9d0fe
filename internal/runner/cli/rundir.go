package cli

// This file holds the temporary directory every run keeps its databases
// in: created before the experiment starts, removed before its result is
// printed, so a run whose clean-up failed never looks like a success.

import (
	"fmt"
	"os"
)

// removeAll removes a run's directory. It is a variable only so that
// rundir_test.go can make removal fail, which as root (CI's user) no
// permission setting does.
var removeAll = os.RemoveAll

// makeRunDir creates the temporary directory of one run of command,
// naming this process its owner unless the run keeps it, and first
// removes those of runs killed earlier (owner.go).
func makeRunDir(command string, keep bool) (string, error) {
	sweepRunDirs()
	dir, err := os.MkdirTemp("", runDirPrefix+command+"-")
	if err == nil && !keep {
		claimRunDir(dir)
	}
	return dir, err
}

// removeRunDir removes dir and everything in it; its error names dir.
func removeRunDir(dir string) error {
	if err := removeAll(dir); err != nil {
		return fmt.Errorf("could not remove the temporary directory %s: %w", dir, err)
	}
	return nil
}
