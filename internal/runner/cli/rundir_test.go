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

// TestNoTemporaryDirectoryIsAFailure: when the run's temporary directory
// cannot be made (TMPDIR names nothing), the experiment never starts, the
// run exits 1 with one line saying why, prints no result, and leaves
// nothing where it was started (no owner file for a directory that does
// not exist).
func TestNoTemporaryDirectoryIsAFailure(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	t.Setenv("TMPDIR", t.TempDir()+"/missing")
	ran := false
	cmds := []Command{{Name: "ledger", Summary: "writes a ledger", New: func(*flag.FlagSet) Experiment { ran = true; return writesLedger{} }}}
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), cmds, []string{"ledger"}, &stdout, &stderr)

	assert.Equal(t, code, 1, "exit status when there is no temporary directory")
	assert.Equal(t, stdout.String(), "", "a run that could not start prints no result")
	assert.Check(t, ran, "the command was never set up")
	assert.Check(t, cmp.Contains(stderr.String(), "fencelab ledger: "), "the message names the command: %q", &stderr)
	assert.Check(t, cmp.Contains(stderr.String(), "missing"), "the message says which directory: %q", &stderr)
	assert.Equal(t, strings.Count(stderr.String(), "\n"), 1, "want one line, got %q", &stderr)
	entries, err := os.ReadDir(wd)
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(entries, 0), "a run whose directory could not be made left files where it was started: %v", entries)
}

// findsViolation is an experiment that writes its ledger and finds a
// violation in it.
type findsViolation struct{}

func (findsViolation) Validate() error { return nil }

func (findsViolation) Run(_ context.Context, env Env) (any, error) {
	if err := os.WriteFile(env.Dir+"/ledger.db", []byte("x"), 0o600); err != nil {
		return nil, err
	}
	return map[string]int{"violations": 1}, Findingf("the audit found 1 violation")
}

// TestAFindingKeptSaysWhereTheLedgerIs: a run that found a violation
// under --keep prints its result, names the kept directory (the ledger a
// person will want to open) and then the finding, and exits 1.
func TestAFindingKeptSaysWhereTheLedgerIs(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cmds := []Command{{Name: "audit", Summary: "finds a violation", New: func(*flag.FlagSet) Experiment { return findsViolation{} }}}
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), cmds, []string{"audit", "--keep"}, &stdout, &stderr)

	assert.Equal(t, code, 1, "exit status of a run that found a violation")
	assert.Equal(t, stdout.String(), "{\n  \"violations\": 1\n}\n", "the result is still printed")
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	assert.Assert(t, cmp.Len(lines, 2), "stderr %q: the kept directory, then the finding", &stderr)
	dir, ok := strings.CutPrefix(lines[0], "fencelab audit: kept ")
	assert.Assert(t, ok, "the first line names the kept directory: %q", lines[0])
	_, err := os.Stat(dir + "/ledger.db")
	assert.NilError(t, err, "the kept directory holds the ledger")
	assert.Equal(t, lines[1], "fencelab audit: the audit found 1 violation")
	assert.NilError(t, os.RemoveAll(dir))
}

// TestAFindingWhoseCleanUpFailedPrintsNoResult: a run that found a
// violation and then could not remove its directory is a failed run: it
// prints no result (one that would look like a finished audit), and its
// one line names the directory left behind.
func TestAFindingWhoseCleanUpFailedPrintsNoResult(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var tried string
	removeAll = func(dir string) error {
		tried = dir
		return errors.New("device or resource busy")
	}
	t.Cleanup(func() { removeAll = os.RemoveAll })
	cmds := []Command{{Name: "audit", Summary: "finds a violation", New: func(*flag.FlagSet) Experiment { return findsViolation{} }}}
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), cmds, []string{"audit"}, &stdout, &stderr)

	assert.Equal(t, code, 1)
	assert.Equal(t, stdout.String(), "", "a run whose clean-up failed must print no result, even one with a finding")
	assert.Check(t, tried != "" && strings.Contains(stderr.String(), tried), "the message %q must name the directory left behind", &stderr)
	assert.Equal(t, strings.Count(stderr.String(), "\n"), 1, "want one line, got %q", &stderr)
	assert.NilError(t, os.RemoveAll(tried))
}
