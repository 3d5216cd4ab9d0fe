package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// writesLedger is an experiment that puts one file in its directory.
type writesLedger struct{}

func (writesLedger) Validate() error { return nil }

func (writesLedger) Run(_ context.Context, env Env) (any, error) {
	return map[string]string{"command": "ledger"}, os.WriteFile(env.Dir+"/ledger.db", []byte("x"), 0o600)
}

// TestUnremovableDirectoryIsAFailure: when the run's temporary directory
// cannot be removed, the run exits 1 with one line naming the directory,
// and prints no result: a clean-up that failed never looks like success.
// (As root no permission bit stops a removal, so the test makes removal
// fail through the removeAll seam.)
func TestUnremovableDirectoryIsAFailure(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var tried string
	removeAll = func(dir string) error {
		tried = dir
		return errors.New("device or resource busy")
	}
	t.Cleanup(func() { removeAll = os.RemoveAll })
	cmds := []Command{{Name: "ledger", Summary: "writes a ledger", New: func(*flag.FlagSet) Experiment { return writesLedger{} }}}
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), cmds, []string{"ledger"}, &stdout, &stderr)

	assert.Equal(t, code, 1, "exit status when the temporary directory cannot be removed")
	assert.Equal(t, stdout.String(), "", "a run whose clean-up failed must print no result")
	assert.Check(t, tried != "", "the run never tried to remove its directory")
	assert.Check(t, cmp.Contains(stderr.String(), tried), "the message must name the directory left behind")
	assert.Equal(t, strings.Count(stderr.String(), "\n"), 1, "want one line, got %q", &stderr)
	assert.NilError(t, os.RemoveAll(tried))
}

// failsAfterLedger is an experiment that writes its ledger and then fails.
type failsAfterLedger struct{}

func (failsAfterLedger) Validate() error { return nil }

func (failsAfterLedger) Run(_ context.Context, env Env) (any, error) {
	if err := os.WriteFile(env.Dir+"/ledger.db", []byte("x"), 0o600); err != nil {
		return nil, err
	}
	return nil, errors.New("worker 7 exited with status 3 before answering")
}

// TestFailedRunAndFailedCleanUpAreBothReported: the experiment fails, and
// then its temporary directory cannot be removed. The run exits 1, prints
// no result, and its one line names the experiment's failure first and
// the directory left behind after it: neither failure hides the other.
func TestFailedRunAndFailedCleanUpAreBothReported(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var tried string
	removeAll = func(dir string) error {
		tried = dir
		return errors.New("device or resource busy")
	}
	t.Cleanup(func() { removeAll = os.RemoveAll })
	cmds := []Command{{Name: "ledger", Summary: "writes a ledger, then fails", New: func(*flag.FlagSet) Experiment { return failsAfterLedger{} }}}
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), cmds, []string{"ledger"}, &stdout, &stderr)

	line := stderr.String()
	assert.Equal(t, code, 1, "exit status when the experiment and its clean-up both failed")
	assert.Equal(t, stdout.String(), "", "a failed run whose clean-up failed too must print no result")
	run, dir := strings.Index(line, "worker 7 exited with status 3"), strings.Index(line, tried)
	assert.Check(t, run >= 0, "the message %q must name the experiment's failure", line)
	assert.Check(t, tried != "" && dir >= 0, "the message %q must name the directory left behind", line)
	assert.Check(t, run < dir, "the message %q must name the experiment's failure before the clean-up's", line)
	assert.Equal(t, strings.Count(line, "\n"), 1, "want one line, got %q", line)
	assert.NilError(t, os.RemoveAll(tried))
}
