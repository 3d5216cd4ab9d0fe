//go:build unix

package variant

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"
)

// TestACancelledCommandTakesEveryProcessItStartedWithIt: a judge's
// command runs test2json, which runs a test binary, which may start
// workers or stop itself (a mutant can make a test SIGSTOP its own
// process). Cancelling the command must end them all, a stopped
// grandchild included, or each cancelled judge leaves one behind.
func TestACancelledCommandTakesEveryProcessItStartedWithIt(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cmd := (&Runner{}).command(ctx, t.TempDir(), "sh", "-c", "sleep 60 & echo $!; kill -STOP $!; wait")
	out, err := cmd.StdoutPipe()
	assert.NilError(t, err)
	assert.NilError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	assert.NilError(t, err, "the grandchild's pid")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	assert.NilError(t, err)

	cancel()
	_ = cmd.Wait()

	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if !alive(pid) {
			return
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the command was cancelled, yet process %d it started (stopped) still lives 5 s later", pid)
		}
	}
}

// alive reports whether pid is a process that has not ended (a zombie
// has ended: only its parent's wait is missing).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := readStat(pid)
	return err != nil || !strings.Contains(stat, ") Z")
}

// readStat reads /proc/PID/stat where there is one; elsewhere it fails,
// and alive takes a process that answers signals as alive.
func readStat(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return string(b), err
}
