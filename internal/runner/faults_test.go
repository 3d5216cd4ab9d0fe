package runner_test

// This file fails one commit of a run at a time, to see that the runner
// never reports a run whose work failed as if it had worked. SQLite's
// commit hook turns the commit it answers non-zero into a rollback, so
// the k-th commit of a run fails, once, and every other one goes through:
// each story meets exactly one failure, at a step of the test's choosing.
// The hook is put on every connection this test binary opens, to the
// ledgers of runs the tests name (a plan per run directory), and in the
// worker processes, which are this binary too, to every ledger, when
// FENCELAB_TEST_FAIL_COMMIT says which of their commits fails.

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gotest.tools/v3/assert"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// failCommitEnv tells a worker process which of its commits fails (1 for
// the first); unset, none does.
const failCommitEnv = "FENCELAB_TEST_FAIL_COMMIT"

// commitPlan is which commit of one run fails, and how many there were.
type commitPlan struct {
	at    int64
	count atomic.Int64
}

// plans holds the plan of each run directory this process watches.
var plans sync.Map // run directory -> *commitPlan

// workerPlan is this process's plan when it is a worker with
// failCommitEnv set: every ledger it opens counts toward it.
var workerPlan *commitPlan

func init() {
	if at, err := strconv.ParseInt(os.Getenv(failCommitEnv), 10, 64); err == nil && filepath.Base(os.Args[0]) == "fencelab" {
		workerPlan = &commitPlan{at: at}
	}
	sqlite.RegisterConnectionHook(func(conn sqlite.ExecQuerierContext, dsn string) error {
		plan := planFor(dsn)
		if plan == nil {
			return nil
		}
		hooks, ok := conn.(sqlite.HookRegisterer)
		if !ok {
			return fmt.Errorf("the sqlite connection takes no commit hook")
		}
		hooks.RegisterCommitHook(func() int32 {
			if plan.count.Add(1) == plan.at {
				return 1 // the commit becomes a rollback
			}
			return 0
		})
		return nil
	})
}

// planFor returns the plan that watches the ledger a DSN names, or nil.
func planFor(dsn string) *commitPlan {
	if workerPlan != nil {
		return workerPlan
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return nil
	}
	for dir := filepath.Dir(u.Path); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if p, ok := plans.Load(dir); ok {
			return p.(*commitPlan)
		}
	}
	return nil
}

// runWithPlan runs command cmd with args in a fresh directory whose k-th
// commit (counted in this process) fails, and returns what it warned on
// stderr, how many commits the run made, and its error. Whatever the run
// did, it must have closed every file of its run.
func runWithPlan(t *testing.T, cmd cli.Command, args []string, at int64) (warned string, commits int64, err error) {
	t.Helper()
	dir := t.TempDir()
	plan := &commitPlan{at: at}
	plans.Store(dir, plan)
	defer plans.Delete(dir)
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	exp := cmd.New(fs)
	assert.NilError(t, fs.Parse(args))
	assert.NilError(t, exp.Validate())
	var stderr strings.Builder
	_, err = exp.Run(t.Context(), cli.Env{Dir: dir, Stderr: &stderr})
	if open := openUnder(t, dir); len(open) > 0 {
		t.Errorf("fencelab %s (commit %d failing, error %v) returned with files of its run still open: %s; "+
			"an experiment closes its ledgers whether its run worked or failed", cmd.Name, at, err, strings.Join(open, ", "))
	}
	return stderr.String(), plan.count.Load(), err
}

// openUnder lists the files under dir that this process holds open, read
// from /proc/self/fd; on a system without it the check is skipped (CI and
// the mutation run are on Linux).
func openUnder(t *testing.T, dir string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	var open []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			open = append(open, filepath.Base(target))
		}
	}
	return open
}

// quick are the flags that keep a command's run short: the torture run's
// defaults take seconds.
var quick = map[string][]string{
	"torture": {"--processes", "2", "--messages", "3", "--kills", "0", "--seed", "1"},
}

// TestAFailedCommitFailsTheRun: whichever commit of a run fails, the
// experiment reports the failure: it fails, or, for a commit that is no
// part of the work (the destination's log of arrivals, in the fencing
// run), it warns on stderr. It never goes on as if the step that failed
// had worked, which would print a result, and exit 0, for work that was
// not done, and its error is the failed commit itself, not a later step
// that failed because of it. The run with no failed commit works, and
// warns of nothing.
func TestAFailedCommitFailsTheRun(t *testing.T) {
	t.Parallel()
	for _, cmd := range runner.Commands {
		if slices.Contains(carriedByTheCompanion, cmd.Name) {
			continue // its workers and its store live in etcd's companion
		}
		t.Run(cmd.Name, func(t *testing.T) {
			t.Parallel()
			for at := int64(1); ; at = nextCommit(at) {
				warned, commits, err := runWithPlan(t, cmd, quick[cmd.Name], at)
				if commits < at {
					assert.NilError(t, err, "fencelab %s with no commit failed", cmd.Name)
					assert.Equal(t, warned, "", "fencelab %s with no commit failed warned", cmd.Name)
					assert.Assert(t, at > 1, "fencelab %s made no commit in this process", cmd.Name)
					return
				}
				assert.Assert(t, err != nil || strings.Contains(warned, "warning"),
					"fencelab %s: commit %d of %d failed, yet the run reported no failure", cmd.Name, at, commits)
				assert.Assert(t, err == nil || isFailedCommit(err),
					"fencelab %s: commit %d of %d failed, yet the run's error is not that commit but a later symptom of it: %v",
					cmd.Name, at, commits, err)
			}
		})
	}
}

// isFailedCommit reports whether err is, or wraps, the error of a commit
// the hook turned into a rollback. A run that goes on past the failed
// step fails later for a reason that hides the real one (a claim refused
// because the completion before it never landed); the run must stop at
// the step that failed and say so.
func isFailedCommit(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_COMMITHOOK
}

// nextCommit is the next commit the sweep fails after at: every one, but
// under -race (which is there for the goroutines, and where one run of a
// command is many times slower) the first three and every fourth after.
func nextCommit(at int64) int64 {
	if raceEnabled && at >= 3 {
		return at + 4
	}
	return at + 1
}

// TestAFailedCommitInAWorkerFailsTheRun: the same for the commits the
// worker processes make, the k-th of each worker failing. The torture
// run is left out: its workers record a failed call and go on, as real
// workers do, and its audit judges the ledger. (It sets the environment
// its workers inherit, so it does not run in parallel.)
func TestAFailedCommitInAWorkerFailsTheRun(t *testing.T) {
	for _, cmd := range runner.Commands {
		if cmd.Name == "torture" || len(cmd.Roles) == 0 || slices.Contains(carriedByTheCompanion, cmd.Name) {
			continue
		}
		t.Run(cmd.Name, func(t *testing.T) {
			for at := int64(1); at < 50; at++ {
				t.Setenv(failCommitEnv, strconv.FormatInt(at, 10))
				_, _, err := runWithPlan(t, cmd, nil, 0)
				if err == nil {
					assert.Assert(t, at > 1, "fencelab %s: its workers' first commit failed, yet the run reported no failure", cmd.Name)
					return
				}
				assert.Check(t, !strings.Contains(err.Error(), "panic"), "fencelab %s: %v", cmd.Name, err)
			}
			t.Fatalf("fencelab %s failed with each of its workers' first 49 commits failing", cmd.Name)
		})
	}
}
