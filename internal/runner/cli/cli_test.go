package cli_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// TestMain lets this test binary play the workers the tests start: a
// worker is this same binary started again with a role in its environment.
func TestMain(m *testing.M) {
	if cli.RoleFromEnv() != "" {
		os.Exit(cli.RunRole(context.Background(), commands, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// experiment is a configurable command for the frame's tests.
type experiment struct {
	n      *int
	dir    *string // where Run saw its temporary directory
	runErr error
}

func (e experiment) Validate() error { return cli.IntFlag{Name: "n", Min: 1, Max: 3}.Check(*e.n) }

func (e experiment) Run(_ context.Context, env cli.Env) (any, error) {
	*e.dir = env.Dir
	if err := os.WriteFile(env.Dir+"/ledger.db", []byte("x"), 0o600); err != nil {
		return nil, err
	}
	return map[string]any{"command": "probe", "n": *e.n}, e.runErr
}

var (
	lastDir string
	failRun error
)

var commands = []cli.Command{{
	Name:    "probe",
	Summary: "a command for the frame's tests",
	New: func(fs *flag.FlagSet) cli.Experiment {
		return experiment{n: fs.Int("n", 1, "`N` from 1 to 3"), dir: &lastDir, runErr: failRun}
	},
	Roles: []cli.Role{
		{Name: "exit-3", Run: func(context.Context, []string, *cli.Link) error { os.Exit(3); return nil }},
		{Name: "echo", Run: func(_ context.Context, _ []string, l *cli.Link) error {
			for {
				var v map[string]any
				if err := l.Recv(&v); err != nil {
					return nil // the coordinator closed the link
				}
				if err := l.Send(v); err != nil {
					return err
				}
			}
		}},
	},
}}

// run calls cli.Main with a fresh TMPDIR and returns the exit status,
// stdout, stderr and what is left in TMPDIR afterwards.
func run(t *testing.T, args ...string) (int, string, string, []os.DirEntry) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var stdout, stderr bytes.Buffer
	code := cli.Main(context.Background(), commands, args, &stdout, &stderr)
	left, err := os.ReadDir(tmp)
	assert.NilError(t, err)
	return code, stdout.String(), stderr.String(), left
}

// TestMisuseExitsTwoWithOneLineAndNoFiles: every kind of misuse exits 2,
// prints exactly one line naming what is allowed, nothing on stdout, and
// creates no file.
func TestMisuseExitsTwoWithOneLineAndNoFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown-command", []string{"nope"}, `fencelab: unknown command "nope": want one of probe`},
		{"unknown-flag", []string{"probe", "--bogus"}, "fencelab probe: flag provided but not defined: -bogus (allowed: --format json, --keep, --n N)"},
		{"bad-value", []string{"probe", "--n", "x"}, `fencelab probe: invalid value "x" for flag -n`},
		{"out-of-range", []string{"probe", "--n", "4"}, "fencelab probe: --n 4 is out of range: want an integer from 1 to 3"},
		{"stray-argument", []string{"probe", "ledger.db"}, `fencelab probe: unexpected argument "ledger.db"`},
		{"text-not-drawn", []string{"probe", "--format", "text"}, `fencelab probe: --format "text" is not allowed: want one of json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr, left := run(t, tc.args...)
			assert.Equal(t, code, 2, "exit status of misuse %q", tc.args)
			assert.Equal(t, stdout, "", "misuse must print nothing on stdout")
			assert.Check(t, strings.HasPrefix(stderr, tc.want), "stderr %q; want it to start with %q", stderr, tc.want)
			assert.Equal(t, strings.Count(stderr, "\n"), 1, "misuse must print exactly one line, got %q", stderr)
			assert.Check(t, cmp.Len(left, 0), "misuse left files behind: %v", left)
		})
	}
}

// TestUsage: no command is misuse (2); help is not (0). Both list the
// commands on stderr and print nothing on stdout.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{{nil, 2}, {[]string{"help"}, 0}, {[]string{"-h"}, 0}, {[]string{"--help"}, 0}} {
		code, stdout, stderr, _ := run(t, tc.args...)
		assert.Equal(t, code, tc.want, "exit status of fencelab %q", tc.args)
		assert.Equal(t, stdout, "", "usage belongs on stderr")
		assert.Check(t, cmp.Contains(stderr, "probe"), "usage must list every command")
	}
}

// TestRunPrintsOneJSONDocumentAndCleansUp: a run that works exits 0,
// prints one indented JSON document and removes its temporary directory.
func TestRunPrintsOneJSONDocumentAndCleansUp(t *testing.T) {
	code, stdout, stderr, left := run(t, "probe", "--n=2")
	assert.Equal(t, code, 0, "stderr: %s", stderr)
	assert.Equal(t, stdout, "{\n  \"command\": \"probe\",\n  \"n\": 2\n}\n")
	assert.Check(t, cmp.Len(left, 0), "the run left its temporary directory behind: %v", left)
}

// TestKeepKeepsTheDirectoryAndSaysWhere: --keep leaves the directory with
// its database and names it on stderr.
func TestKeepKeepsTheDirectoryAndSaysWhere(t *testing.T) {
	code, _, stderr, left := run(t, "probe", "--keep")
	assert.Equal(t, code, 0)
	assert.Assert(t, cmp.Len(left, 1), "--keep must keep exactly the run's directory")
	assert.Check(t, cmp.Contains(stderr, "kept "+lastDir))
	_, err := os.Stat(lastDir + "/ledger.db")
	assert.NilError(t, err, "the kept directory must still hold the database")
}

// TestFailedExperimentExitsOneAndCleansUp: an experiment that fails exits
// 1 with its error on stderr, nothing on stdout, and no directory left.
func TestFailedExperimentExitsOneAndCleansUp(t *testing.T) {
	failRun = errors.New("worker 42 exited with status 3 before answering")
	t.Cleanup(func() { failRun = nil })
	code, stdout, stderr, left := run(t, "probe")
	assert.Equal(t, code, 1, "exit status of a failed experiment")
	assert.Equal(t, stdout, "", "a failed experiment prints no JSON")
	assert.Check(t, cmp.Contains(stderr, "worker 42 exited with status 3"))
	assert.Check(t, cmp.Len(left, 0), "a failed run left files behind: %v", left)
}

// TestDeadWorkerIsReportedAsDead: a worker that dies before answering is
// reported with its exit status, not as a bare end of file.
func TestDeadWorkerIsReportedAsDead(t *testing.T) {
	t.Parallel()
	c, err := cli.StartChild(context.Background(), "exit-3")
	assert.NilError(t, err)
	defer c.Stop()

	var v map[string]any
	err = c.Recv(&v)

	assert.ErrorContains(t, err, "exited with status 3 before answering")
}

// TestLinkCarriesMessagesBothWays: what the coordinator sends, an echo
// worker in another process sends back, and the worker exits cleanly when
// the coordinator is done with it.
func TestLinkCarriesMessagesBothWays(t *testing.T) {
	t.Parallel()
	c, err := cli.StartChild(context.Background(), "echo")
	assert.NilError(t, err)
	defer c.Stop()
	assert.Check(t, c.Pid != os.Getpid(), "the worker must be another process")

	assert.NilError(t, c.Send(map[string]any{"op": "ping", "n": 1}))
	var got map[string]any
	assert.NilError(t, c.Recv(&got))
	assert.DeepEqual(t, got, map[string]any{"op": "ping", "n": float64(1)})

	exit, err := c.Wait()
	assert.NilError(t, err)
	assert.Equal(t, exit, cli.Exit{Code: 0, Normal: true}, "how the echo worker ended")
}

// TestCancelKillsTheWorker: cancelling the context (what Ctrl-C does)
// kills a worker that is waiting for orders, promptly.
func TestCancelKillsTheWorker(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := cli.StartChild(ctx, "echo")
	assert.NilError(t, err)
	defer c.Stop()

	cancel()
	done := make(chan cli.Exit, 1)
	go func() { exit, _ := c.Wait(); done <- exit }()
	select {
	case exit := <-done:
		assert.Check(t, !exit.Normal || exit.Code != 0, "a cancelled worker must not look like a clean exit: %+v", exit)
	case <-time.After(10 * time.Second):
		t.Fatal("the worker was still running 10s after its context was cancelled")
	}
}
