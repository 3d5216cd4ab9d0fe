//go:build unix

package worker_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// startWithHandshake starts this binary to play the touch role, as its
// real parent, handing it data on descriptor 3; with hold, the socket
// stays open until the worker exits. It returns the worker's exit status and
// stderr.
func startWithHandshake(t *testing.T, data string, hold bool) (int, string) {
	t.Helper()
	return startRole(t, "touch", data, "", hold)
}

// startRole is startWithHandshake for the role named role, with stdin
// (its link from the parent) holding input.
func startRole(t *testing.T, role, data, input string, hold bool) (int, string) {
	t.Helper()
	self, err := os.Executable()
	assert.NilError(t, err)
	w, r, err := worker.HandshakeSocket()
	assert.NilError(t, err)
	cmd := exec.Command(self)
	cmd.Args[0] = "fencelab"
	cmd.Env = append(os.Environ(), "FENCELAB_ROLE="+role)
	cmd.ExtraFiles = []*os.File{r}
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stderr = strings.NewReader(input), &stderr
	assert.NilError(t, cmd.Start())
	r.Close()
	go func() {
		_, _ = w.WriteString(data) // a worker that refused may have stopped reading
		if !hold {
			w.Close()
		}
	}()
	err = cmd.Wait()
	w.Close()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return exitErr.ExitCode(), stderr.String()
	}
	assert.NilError(t, err)
	return 0, stderr.String()
}

// TestAHandshakeOnlyItsParentCouldWriteIsRequired: even from its real
// parent, over a pipe, a worker takes only a handshake that is one, for
// its own role and no longer than 1 MiB: anything else exits 2 with one
// line, and the file the arguments name is never created. A handshake
// just under the limit is taken.
func TestAHandshakeOnlyItsParentCouldWriteIsRequired(t *testing.T) {
	t.Parallel()
	// padded is a handshake of the touch role naming target whose JSON is
	// n bytes long: the padding is a second argument.
	padded := func(target string, n int) string {
		head := fmt.Sprintf(`{"role":"touch","parent":%d,"args":[%q,"`, os.Getpid(), target)
		return head + strings.Repeat("x", n-len(head)-len(`"]}`)) + `"]}`
	}
	for _, tc := range []struct {
		name    string
		data    func(target string) string
		created bool
		why     string // what the one line says was wrong
	}{
		{"not-json", func(string) string { return "the runner sends you its regards\n" }, false, "(the handshake is not one)"},
		{"another-role", func(target string) string {
			return fmt.Sprintf(`{"role":"echo","parent":%d,"args":[%q]}`, os.Getpid(), target)
		}, false, "(the handshake names another role)"},
		{"over-one-mebibyte", func(target string) string { return padded(target, 1<<20+1) }, false, "(the handshake is not one)"},
		{"at-one-mebibyte", func(target string) string { return padded(target, 1<<20) }, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := filepath.Join(t.TempDir(), "any.db")
			code, stderr := startWithHandshake(t, tc.data(target), false)
			_, err := os.Stat(target)
			if tc.created {
				assert.Equal(t, code, 0, "a worker handed a good handshake; stderr: %s", stderr)
				assert.NilError(t, err, "a worker handed a good handshake did not do its work")
				return
			}
			assert.Equal(t, code, 2, "exit status of a worker handed a bad handshake; stderr: %s", stderr)
			assert.Equal(t, strings.Count(stderr, "\n"), 1, "want exactly one line on stderr, got %q", stderr)
			assert.Check(t, cmp.Contains(stderr, "without its parent"))
			assert.Check(t, cmp.Contains(stderr, tc.why), "the line says what was wrong with the handshake")
			assert.Check(t, errors.Is(err, os.ErrNotExist), "a worker handed a bad handshake created %s", target)
		})
	}
}

// TestAWorkerGivesUpOnASilentParent: a parent that holds the handshake
// pipe open and writes nothing does not keep its worker waiting: after
// five seconds it exits 2, having done nothing.
func TestAWorkerGivesUpOnASilentParent(t *testing.T) {
	t.Parallel()
	start := time.Now()
	code, stderr := startWithHandshake(t, "", true)
	assert.Equal(t, code, 2, "exit status of a worker whose parent wrote nothing; stderr: %s", stderr)
	assert.Check(t, cmp.Contains(stderr, "no handshake within 5s"))
	assert.Check(t, time.Since(start) < time.Minute, "the worker waited %v", time.Since(start))
}

// TestWorkerMainExitsWithWhatItsRoleDid: behind a good handshake, a role
// whose body fails exits 1 with one line naming the role and why, and a
// role this program does not have exits 2 with one line naming it.
func TestWorkerMainExitsWithWhatItsRoleDid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		role     string
		code     int
		mentions string
	}{
		{"refuse", 1, "fencelab worker refuse: "},
		{"nosuch", 2, `fencelab: unknown worker role "nosuch"`},
	} {
		t.Run(tc.role, func(t *testing.T) {
			t.Parallel()
			// One request on the link, which the refuse role fails.
			hs := fmt.Sprintf(`{"role":%q,"parent":%d,"args":[]}`, tc.role, os.Getpid())
			code, stderr := startRole(t, tc.role, hs, `{"n":1}`+"\n", false)
			assert.Equal(t, code, tc.code, "exit status of role %s; stderr: %s", tc.role, stderr)
			assert.Equal(t, strings.Count(stderr, "\n"), 1, "want exactly one line on stderr, got %q", stderr)
			assert.Check(t, cmp.Contains(stderr, tc.mentions))
		})
	}
}
