// Package companion keeps etcd out of the fencelab binary's build.
//
// etcd's server and client are large: compiling them more than doubles
// the first build of the runner, which a learner pays before their first
// experiment (measured on a 2-core machine: 76 s of CPU without them, 208
// s with). So the fencelab binary carries no etcd. Its chapter 10
// commands (lockservice, torture --lock etcd) check their flags as every
// command does, then build the companion, the runner with etcd's roles
// linked in (tools/fencelab/withetcd), and replace this process with it,
// on the same command line. The companion runs the command itself: its
// members, proxy and workers are its own children, started through the
// runner's handshake like every worker.
//
// A program that links etcd's roles in (the companion, and chapter 10's
// tests) says so with Link, and the commands run at once.
package companion

import (
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// linked are the etcd roles this program carries, if any.
var linked []worker.Role

// Link records that this program carries the etcd roles: the chapter 10
// commands run here rather than in the companion. Call it before
// runner's Main dispatches anything.
func Link(roles []worker.Role) { linked = roles }

// Linked reports whether this program carries the etcd roles.
func Linked() bool { return len(linked) > 0 }

// Roles returns the etcd roles this program carries.
func Roles() []worker.Role { return linked }
