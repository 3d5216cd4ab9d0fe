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
	"gotest.tools/v3/assert/cmp"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// failCommitEnv tells a worker process which of its commits fails (1 for
// the first); unset, none does.
const failCommitEnv = "FENCELAB_TEST_FAIL_COMMIT"

// commitLogEnv names a file a worker process with failCommitEnv set
// appends its pid to at each commit it makes, so that the test learns how
// many commits each worker of a run made.
const commitLogEnv = "FENCELAB_TEST_COMMIT_LOG"

// commitPlan is which commit of one run fails, and how many there were.
type commitPlan struct {
	at    int64
	count atomic.Int64
	log   string // a worker's commit log (commitLogEnv), or ""
}

// commit counts one commit and reports whether it is the one that fails.
func (p *commitPlan) commit() bool {
	n := p.count.Add(1)
	if p.log != "" {
		f, err := os.OpenFile(p.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	return n == p.at
}

// plans holds the plan of each run directory this process watches.
var plans sync.Map // run directory -> *commitPlan

// workerPlan is this process's plan when it is a worker with
// failCommitEnv set: every ledger it opens counts toward it.
var workerPlan *commitPlan

func init() {
	if at, err := strconv.ParseInt(os.Getenv(failCommitEnv), 10, 64); err == nil && filepath.Base(os.Args[0]) == "fencelab" {
		workerPlan = &commitPlan{at: at, log: os.Getenv(commitLogEnv)}
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
			if plan.commit() {
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
// commit (counted in this process) fails, and returns its result, what it
// warned on stderr, how many commits the run made, and its error. Whatever the run
// did, it must have closed every file of its run.
func runWithPlan(t *testing.T, cmd cli.Command, args []string, at int64) (result any, warned string, commits int64, err error) {
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
	result, err = exp.Run(t.Context(), cli.Env{Dir: dir, Stderr: &stderr})
	if open := openUnder(t, os.Getpid(), dir); len(open) > 0 {
		t.Errorf("fencelab %s (commit %d failing, error %v) returned with files of its run still open: %s; "+
			"an experiment closes its ledgers whether its run worked or failed", cmd.Name, at, err, strings.Join(open, ", "))
	}
	if left := childrenUnder(t, dir); len(left) > 0 {

		t.Errorf("fencelab %s (commit %d failing, error %v) returned with its worker processes still running: pids %v; "+
			"an experiment stops every process it started whether its run worked or failed", cmd.Name, at, err, left)
	}
	return result, stderr.String(), plan.count.Load(), err
}

// childrenUnder lists the workers this process started that hold a file
// under dir open: the workers of that run, which open its ledger. A
// worker runs as "fencelab"; a child another run is starting, between
// its fork and its exec, still has this binary's name and, for that
// moment, a copy of every descriptor this process has, and is not one.
// On a system without /proc the check is skipped.
func childrenUnder(t *testing.T, dir string) []int {
	t.Helper()
	// Each thread's children file lists the processes that thread
	// started.
	lists, err := filepath.Glob("/proc/self/task/*/children")
	if err != nil || len(lists) == 0 {
		return nil
	}
	var left []int
	for _, list := range lists {
		pids, err := os.ReadFile(list)
		if err != nil {
			continue // the thread ended while we looked
		}
		for _, field := range strings.Fields(string(pids)) {
			pid, err := strconv.Atoi(field)
			if err != nil {
				continue
			}
			argv, err := os.ReadFile(filepath.Join("/proc", field, "cmdline"))
			if err == nil && string(argv) == "fencelab\x00" && len(openUnder(t, pid, dir)) > 0 {
				left = append(left, pid)
			}
		}
	}
	return left
}

// openUnder lists the files under dir that process pid holds open, read
// from /proc/PID/fd; on a system without it the check is skipped (CI and
// the mutation run are on Linux).
func openUnder(t *testing.T, pid int, dir string) []string {
	t.Helper()
	fdDir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	var open []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
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
				result, warned, commits, err := runWithPlan(t, cmd, quick[cmd.Name], at)
				if commits < at {
					assert.NilError(t, err, "fencelab %s with no commit failed", cmd.Name)
					assert.Assert(t, result != nil, "fencelab %s with no commit failed reported no result", cmd.Name)
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
// worker processes make, the k-th of each worker failing, for every k up
// to the most commits a worker makes in a run where none fails: a
// failure in process B is never reported as a result. The torture and
// history runs are left out: their workers record a failed call and go
// on, as real workers do, and the audit or the linearizability check
// judges what the calls did. (It sets the environment its
// workers inherit, so it does not run in parallel.)
func TestAFailedCommitInAWorkerFailsTheRun(t *testing.T) {
	for _, cmd := range runner.Commands {
		if cmd.Name == "torture" || cmd.Name == "history" || len(cmd.Roles) == 0 || slices.Contains(carriedByTheCompanion, cmd.Name) {
			continue
		}
		t.Run(cmd.Name, func(t *testing.T) {
			most := workerCommits(t, cmd)
			assert.Assert(t, most > 0, "fencelab %s: its workers made no commit", cmd.Name)
			for at := int64(1); at <= most; at++ {
				t.Setenv(failCommitEnv, strconv.FormatInt(at, 10))
				result, _, _, err := runWithPlan(t, cmd, nil, 0)
				assert.Assert(t, err != nil, "fencelab %s: commit %d of its workers failed, yet the run reported no failure and printed %+v",
					cmd.Name, at, result)
				assert.Check(t, !strings.Contains(err.Error(), "panic"), "fencelab %s: %v", cmd.Name, err)
				// The worker exits on its failure (1, after printing it):
				// the run's error is that, not a refusal further on
				// that followed from it.
				assert.Check(t, cmp.Contains(err.Error(), "exited with status 1"),
					"fencelab %s: commit %d of its workers failed, yet the run's error is a later symptom of it", cmd.Name, at)
			}
		})
	}
}

// workerCommits runs cmd with no commit failing and returns the most
// commits one of its workers made. The run must succeed and print a
// result.
func workerCommits(t *testing.T, cmd cli.Command) int64 {
	t.Helper()
	log := filepath.Join(t.TempDir(), "commits")
	t.Setenv(failCommitEnv, "0")
	t.Setenv(commitLogEnv, log)
	result, _, _, err := runWithPlan(t, cmd, nil, 0)
	assert.NilError(t, err, "fencelab %s with no commit failing", cmd.Name)
	assert.Assert(t, result != nil, "fencelab %s with no commit failing printed no result", cmd.Name)
	data, err := os.ReadFile(log)
	assert.NilError(t, err, "fencelab %s: no worker logged a commit", cmd.Name)
	perWorker := map[string]int64{}
	var most int64
	for _, pid := range strings.Fields(string(data)) {
		perWorker[pid]++
		most = max(most, perWorker[pid])
	}
	return most
}
