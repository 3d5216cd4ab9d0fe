package variant

// This file holds the Runner: which module, which go command, how many
// runs at once, how long each may take, and the scratch directory every
// run writes into.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"
)

// DefaultTimeout is the -timeout each go test run gets unless
// Runner.Timeout says otherwise.
const DefaultTimeout = 2 * time.Minute

// Runner runs the chapter tests of one module. Its fields are set before
// the first run and not changed after; a Runner is safe for concurrent
// use. Close removes what it wrote.
type Runner struct {
	// Root is the module root, absolute.
	Root string
	// Go is the go command; "go" if empty.
	Go string
	// Env is added to the environment of every go command and test binary.
	Env []string
	// Jobs bounds how many runs Each lets go at once; DefaultJobs() if zero.
	Jobs int
	// Timeout is each go test's -timeout; DefaultTimeout if zero.
	Timeout time.Duration

	once      sync.Once
	scratch   string // created on first use
	module    string
	test2json []string
	setupErr  error
}

// New returns a Runner for the module at root.
func New(root string) *Runner { return &Runner{Root: root} }

// Close removes the scratch directory and everything the runs left in it.
func (r *Runner) Close() error {
	if r.scratch == "" {
		return nil
	}
	if err := os.RemoveAll(r.scratch); err != nil {
		return fmt.Errorf("variant: remove %s: %w", r.scratch, err)
	}
	return nil
}

// setup creates the scratch directory (with tmp/ inside, the runs'
// TMPDIR), reads the module path and finds test2json, once.
func (r *Runner) setup(ctx context.Context) error {
	r.once.Do(func() {
		data, err := os.ReadFile(filepath.Join(r.Root, "go.mod"))
		if err != nil {
			r.setupErr = fmt.Errorf("variant: %w", err)
			return
		}
		r.module = modfile.ModulePath(data)
		dir, err := os.MkdirTemp("", "fencelab-variants-")
		if err != nil {
			r.setupErr = fmt.Errorf("variant: %w", err)
			return
		}
		r.scratch = dir
		if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o755); err != nil {
			r.setupErr = fmt.Errorf("variant: %w", err)
			return
		}
		r.test2json = r.findTest2JSON(ctx)
	})
	return r.setupErr
}

// Module returns the module path the go.mod at Root declares.
func (r *Runner) Module(ctx context.Context) (string, error) {
	if err := r.setup(ctx); err != nil {
		return "", err
	}
	return r.module, nil
}

// TempDir returns a new directory inside the scratch directory, whose
// name starts with prefix: a place for one variant's files.
func (r *Runner) TempDir(ctx context.Context, prefix string) (string, error) {
	if err := r.setup(ctx); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(r.scratch, prefix)
	if err != nil {
		return "", fmt.Errorf("variant: %w", err)
	}
	return dir, nil
}

// TestTimeout is each go test's -timeout.
func (r *Runner) TestTimeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

// goCmd is the go command.
func (r *Runner) goCmd() string {
	if r.Go != "" {
		return r.Go
	}
	return "go"
}

// command returns name with args, to run in dir, with Env and the scratch
// TMPDIR in its environment. A cancelled ctx kills it and every process
// it started (ownGroup); its output pipes are given five seconds to close
// after that.
func (r *Runner) command(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), r.Env...)
	if r.scratch != "" {
		tmp := filepath.Join(r.scratch, "tmp")
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp, "GOTMPDIR="+tmp)
	}
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// GoCommand returns the go command with args, run in Root with the
// Runner's environment: for the go commands an engine runs itself (go
// list, go build of a tool).
func (r *Runner) GoCommand(ctx context.Context, args ...string) (*exec.Cmd, error) {
	if err := r.setup(ctx); err != nil {
		return nil, err
	}
	return r.command(ctx, r.Root, r.goCmd(), args...), nil
}

// findTest2JSON returns the test2json program to run directly. `go tool
// test2json` starts the go command before every test run, which on a
// small machine costs more than a chapter's in-process tests; `go tool -n`
// builds the tool once if needed and names it. If that fails, every run
// goes through the go command after all.
func (r *Runner) findTest2JSON(ctx context.Context) []string {
	cmd := r.command(ctx, r.Root, r.goCmd(), "tool", "-n", "test2json")
	if out, err := cmd.Output(); err == nil {
		if fields := strings.Fields(string(out)); len(fields) == 1 {
			if _, err := os.Stat(fields[0]); err == nil {
				return fields
			}
		}
	}
	return []string{r.goCmd(), "tool", "test2json"}
}
