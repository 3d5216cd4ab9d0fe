//go:build unix

package worker_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestRoleEnteredByHandCreatesNothing: the worker route is not a way
// around "the runner accepts no paths". A worker role entered without its
// parent (the environment variable set by hand, with or without a
// descriptor 3 made to look like a handshake, or with the very socket
// Start makes but a handshake another process wrote on it) exits 2 with
// one line, and the file its arguments name is never created.
func TestRoleEnteredByHandCreatesNothing(t *testing.T) {
	self, err := os.Executable()
	assert.NilError(t, err)
	for _, tc := range []struct {
		name string
		// command returns the command that enters the touch role by
		// hand, asking it to create target.
		command func(t *testing.T, target string) *exec.Cmd
		// why is what the refusal must say was wrong, where one check
		// alone tells this case apart ("" where several would).
		why string
	}{
		{"environment-only", func(t *testing.T, target string) *exec.Cmd {
			return exec.Command(self, target)
		}, "descriptor 3 is not a socket"},
		{"handshake-in-a-file", func(t *testing.T, target string) *exec.Cmd {
			f := handshakeFile(t, os.Getpid(), target)
			cmd := exec.Command(self)
			cmd.ExtraFiles = []*os.File{f}
			return cmd
		}, "descriptor 3 is not a socket"},
		{"pipe-from-another-parent", func(t *testing.T, target string) *exec.Cmd {
			r, w, err := os.Pipe()
			assert.NilError(t, err)
			t.Cleanup(func() { r.Close() })
			// The test process is the parent, but the handshake claims
			// pid 1 wrote it.
			_, err = w.WriteString(handshakeJSON(1, target))
			assert.NilError(t, err)
			w.Close()
			cmd := exec.Command(self)
			cmd.ExtraFiles = []*os.File{r}
			return cmd
		}, "descriptor 3 is not a socket"},
		{"handshake-naming-another-parent", func(t *testing.T, target string) *exec.Cmd {
			// The parent writes on the socket Start makes, but the
			// handshake it writes says pid 1 wrote it.
			return socketHandshake(t, self, handshakeJSON(1, target))
		}, "(the handshake was not written by this process's parent)"},
		{"handshake-for-another-role", func(t *testing.T, target string) *exec.Cmd {
			h := strings.Replace(handshakeJSON(os.Getpid(), target), `"role":"touch"`, `"role":"another"`, 1)
			return socketHandshake(t, self, h)
		}, "names another role"},
		{"handshake-written-by-a-helper", func(t *testing.T, target string) *exec.Cmd {
			if runtime.GOOS != "linux" {
				t.Skip("only where the kernel names a socket's writer (SCM_CREDENTIALS) is a handshake from a helper told apart")
			}
			// Everything is as Start makes it, the socket included, and the
			// handshake names this process, the worker's parent and the
			// same program: only another process, a shell, wrote it.
			w, r, err := worker.HandshakeSocket()
			assert.NilError(t, err)
			t.Cleanup(func() { r.Close() })
			helper := exec.Command("/bin/sh", "-c", `printf '%s' "$1" >&3`, "sh", handshakeJSON(os.Getpid(), target))
			helper.ExtraFiles = []*os.File{w}
			out, err := helper.CombinedOutput()
			assert.NilError(t, err, "the helper: %s", out)
			w.Close()
			cmd := exec.Command(self)
			cmd.ExtraFiles = []*os.File{r}
			return cmd
		}, "not by this process's parent"},
		{"handshake-finished-by-the-parent", func(t *testing.T, target string) *exec.Cmd {
			if runtime.GOOS != "linux" {
				t.Skip("only where the kernel names a socket's writer (SCM_CREDENTIALS) is a handshake from a helper told apart")
			}
			// A helper writes the first half of the handshake, the parent
			// the rest: the last bytes are the parent's, the first are not.
			w, r, err := worker.HandshakeSocket()
			assert.NilError(t, err)
			t.Cleanup(func() { r.Close() })
			h := handshakeJSON(os.Getpid(), target)
			helper := exec.Command("/bin/sh", "-c", `printf '%s' "$1" >&3`, "sh", h[:len(h)/2])
			helper.ExtraFiles = []*os.File{w}
			out, err := helper.CombinedOutput()
			assert.NilError(t, err, "the helper: %s", out)
			_, err = w.WriteString(h[len(h)/2:])
			assert.NilError(t, err)
			w.Close()
			cmd := exec.Command(self)
			cmd.ExtraFiles = []*os.File{r}
			return cmd
		}, "not by this process's parent"},
		{"another-program-as-parent", func(t *testing.T, target string) *exec.Cmd {
			if runtime.GOOS != "linux" {
				t.Skip("only where /proc shows the parent's executable is a parent of another program told apart")
			}
			// A program of its own makes the socket, writes a handshake
			// naming itself, and starts the worker: every check but the
			// parent's executable passes.
			other := filepath.Join(t.TempDir(), "otherparent")
			build := exec.Command("go", "build", "-o", other, "./testdata/otherparent")
			out, err := build.CombinedOutput()
			assert.NilError(t, err, "build testdata/otherparent: %s", out)
			return exec.Command(other, self, "touch", target)
		}, "the parent process is not a fencelab runner"},
		{"shell-posing-as-parent", func(t *testing.T, target string) *exec.Cmd {
			if runtime.GOOS != "linux" {
				t.Skip("only where /proc shows the parent's executable can a shell that forges the rest be told apart")
			}
			// A shell writes a handshake naming its own pid into a named
			// pipe and starts the worker with that pipe as descriptor 3:
			// everything but the parent's program is right.
			fifo := filepath.Join(t.TempDir(), "handshake")
			assert.NilError(t, syscall.Mkfifo(fifo, 0o600))
			script := `"$0" 3<"$1" & printf '{"role":"touch","parent":%d,"args":["%s"]}' $$ "$2" >"$1"; wait $!`
			return exec.Command("/bin/sh", "-c", script, self, fifo, target)
		}, "descriptor 3 is not a socket"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "any.db")
			cmd := tc.command(t, target)
			cmd.Env = append(os.Environ(), "FENCELAB_ROLE=touch")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr

			err := cmd.Run()

			var exitErr *exec.ExitError
			assert.Assert(t, errors.As(err, &exitErr), "a worker role entered by hand ran to the end (err %v); want exit status 2", err)
			assert.Equal(t, exitErr.ExitCode(), 2, "exit status of a worker role entered by hand; stderr: %s", &stderr)
			assert.Equal(t, strings.Count(stderr.String(), "\n"), 1, "want exactly one line on stderr, got %q", &stderr)
			assert.Check(t, cmp.Contains(stderr.String(), "without its parent"))
			if tc.why != "" {
				assert.Check(t, cmp.Contains(stderr.String(), tc.why), "the refusal must say what gave the role away")
			}
			assert.Equal(t, stdout.String(), "")
			_, err = os.Stat(target)
			assert.Check(t, errors.Is(err, os.ErrNotExist), "a worker role entered by hand created %s", target)
		})
	}
}

// socketHandshake returns the command that starts self with the socket
// Start makes as its descriptor 3, on which this process, its parent,
// has written h.
func socketHandshake(t *testing.T, self, h string) *exec.Cmd {
	t.Helper()
	w, r, err := worker.HandshakeSocket()
	assert.NilError(t, err)
	t.Cleanup(func() { r.Close() })
	_, err = w.WriteString(h)
	assert.NilError(t, err)
	w.Close()
	cmd := exec.Command(self)
	cmd.ExtraFiles = []*os.File{r}
	return cmd
}

// handshakeJSON is a handshake for the touch role, claiming that the
// process parent wrote it and asking for target to be created.
func handshakeJSON(parent int, target string) string {
	return fmt.Sprintf(`{"role":"touch","parent":%d,"args":[%q]}`+"\n", parent, target)
}

// handshakeFile returns a regular file, open for reading, that holds a
// handshake: the right content in the wrong kind of descriptor.
func handshakeFile(t *testing.T, parent int, target string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "handshake.json")
	assert.NilError(t, os.WriteFile(path, []byte(handshakeJSON(parent, target)), 0o600))
	f, err := os.Open(path)
	assert.NilError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// linger is this test binary's mode for
// TestAShellThatBecomesTheRunnerIsRefused: the process waits for its
// child whose pid the variable holds, prints that child's exit status,
// and exits 0.
const linger = "WORKER_TEST_LINGER"

func init() {
	if pid := os.Getenv(linger); pid != "" {
		lingerFor(pid)
	}
}

// lingerFor waits for the child pid, one it did not start itself but
// inherited from the shell it was before exec, prints its exit status,
// and exits 0: a process of this program, as busy as a runner is.
func lingerFor(pid string) {
	n, err := strconv.Atoi(pid)
	if err != nil {
		os.Exit(3)
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(n, &ws, 0, nil); err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	fmt.Println(ws.ExitStatus())
	os.Exit(0)
}

// TestAShellThatBecomesTheRunnerIsRefused: the forgery of a role by hand
// that got in before: a shell starts the worker with a named pipe as
// descriptor 3, then execs this very program, so that the worker's
// parent is, by the time it checks, the same program at the pid the
// handshake names, and a helper writes the handshake. The worker exits
// 2 with one line saying descriptor 3 is no socket from a parent, and
// the file the handshake names is never created.
func TestAShellThatBecomesTheRunnerIsRefused(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	assert.NilError(t, err)
	dir := t.TempDir()
	fifo, target := filepath.Join(dir, "handshake"), filepath.Join(dir, "any.db")
	assert.NilError(t, syscall.Mkfifo(fifo, 0o600))
	// The shell's own process becomes this program, which waits for the
	// worker and prints its exit status.
	script := `FENCELAB_ROLE=touch "$0" 3<"$1" &
worker=$!
( sleep 0.2; printf '{"role":"touch","parent":%d,"args":["%s"]}' $$ "$2" >"$1" ) &
exec env ` + linger + `=$worker "$0"`
	cmd := exec.Command("/bin/sh", "-c", script, self, fifo, target)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr

	out, err := cmd.Output()

	assert.NilError(t, err, "the shell that became this program; stderr: %s", &stderr)
	assert.Equal(t, strings.TrimSpace(string(out)), "2", "exit status of a worker whose parent shell became this program; stderr: %s", &stderr)
	assert.Equal(t, strings.Count(stderr.String(), "\n"), 1, "want exactly one line on stderr, got %q", &stderr)
	assert.Check(t, cmp.Contains(stderr.String(), "without its parent"))
	assert.Check(t, cmp.Contains(stderr.String(), "(descriptor 3 is not a socket from a parent)"))
	_, err = os.Stat(target)
	assert.Check(t, errors.Is(err, os.ErrNotExist), "a worker whose parent shell became this program created %s", target)
}
