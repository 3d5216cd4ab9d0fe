//go:build unix

package variant

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and makes its
// cancellation kill the whole group. A judge runs test2json, which runs
// the test binary: killing test2json alone would leave the binary, and
// any worker it started, running. A binary that stopped itself (a mutant
// can make a test SIGSTOP its own process) would stay stopped for good.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// SIGKILL ends stopped processes too.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
