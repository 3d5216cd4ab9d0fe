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
	"strings"
	"syscall"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestRoleEnteredByHandCreatesNothing: the worker route is not a way
// around "the runner accepts no paths". A worker role entered without its
// parent (the environment variable set by hand, with or without a
// descriptor 3 made to look like a handshake) exits 2 with one line, and
// the file its arguments name is never created.
func TestRoleEnteredByHandCreatesNothing(t *testing.T) {
	self, err := os.Executable()
	assert.NilError(t, err)
	for _, tc := range []struct {
		name string
		// command returns the command that enters the touch role by
		// hand, asking it to create target.
		command func(t *testing.T, target string) *exec.Cmd
	}{
		{"environment-only", func(t *testing.T, target string) *exec.Cmd {
			return exec.Command(self, target)
		}},
		{"handshake-in-a-file", func(t *testing.T, target string) *exec.Cmd {
			f := handshakeFile(t, os.Getpid(), target)
			cmd := exec.Command(self)
			cmd.ExtraFiles = []*os.File{f}
			return cmd
		}},
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
		}},
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
		}},
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
			assert.Equal(t, stdout.String(), "")
			_, err = os.Stat(target)
			assert.Check(t, errors.Is(err, os.ErrNotExist), "a worker role entered by hand created %s", target)
		})
	}
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
