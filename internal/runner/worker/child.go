package worker

// This file holds StartChild: how the runner starts any process of its
// own (a worker, an etcd member, the go command that builds the etcd
// companion) so that none outlives it. An interrupt lets the runner stop
// its children itself, but kill -9 ends it before it can: a child left
// behind keeps its loopback ports, keeps writing under a temporary
// directory nobody will remove, and, if the runner had stopped it with
// SIGSTOP, stays in the process table for good. Where the system can tie
// a child's life to its parent's (Linux, child_linux.go), StartChild does;
// elsewhere (child_other.go) it is exec.Cmd.Start, and a worker that
// outlives the runner learns it from its link, which the runner's end
// closes when it dies (see Link.PeerClosed).

import "os/exec"

// StartChild starts cmd, which must not have started, as a child of this
// process that does not outlive it. On Linux the child is killed
// (SIGKILL, which also ends a stopped process) as soon as this process
// ends, however it ends, kill -9 included; it leads a process group of
// its own; and if cmd was made by exec.CommandContext, cancelling the
// context kills that whole group. Elsewhere it is cmd.Start.
func StartChild(cmd *exec.Cmd) error { return startChild(cmd) }
