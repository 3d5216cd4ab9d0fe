//go:build unix

package worker

// This file gives each child the runner starts a process group of its
// own, on every Unix. The runner kills the group, not the child alone,
// so that nothing the child started outlives it; a terminal's Ctrl-C
// reaches the runner only, which then stops its children itself (the
// frame's interrupt); and a child left stopped when the runner dies is a
// group with no parent in its session, which the kernel wakes with SIGHUP
// and SIGCONT.

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd's child lead a process group of its own, and, if cmd
// was made by exec.CommandContext, makes cancelling its context kill that
// group rather than the child alone.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if cmd.Cancel != nil {
		cmd.Cancel = func() error { return killChild(cmd.Process) }
	}
}

// killChild kills p and its process group at once. The group first: it
// holds whatever p started and did not move out of it; then p itself
// through its handle, which says whether p had already ended
// (os.ErrProcessDone). A caller kills a child only until it learns the
// child was waited for; only then is its pid, the group's id, free for
// another process to take.
func killChild(p *os.Process) error {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	return p.Kill()
}
