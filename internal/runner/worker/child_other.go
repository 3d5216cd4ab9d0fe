//go:build !linux

package worker

// This file is child_linux.go where the system has no way to have a child
// killed when its parent dies. A worker the runner leaves behind ends by
// itself once its link closes, which the end of the runner's process
// does; one the runner had stopped (SIGSTOP) is woken by the kernel with
// SIGHUP and SIGCONT, which a Unix sends to a process group left with a
// stopped process and no parent in its session (group_unix.go makes each
// child such a group), and SIGHUP ends a worker (see Main).

import "os/exec"

// startChild starts cmd, leading a process group of its own where the
// system has them.
func startChild(cmd *exec.Cmd) error {
	ownGroup(cmd)
	return cmd.Start()
}
