// Package runner is the fencelab runner: the table of its commands and the
// entry point both the binary (tools/fencelab) and the chapters' test
// scripts call.
package runner

import (
	"context"
	"os"

	"github.com/fencelab/fencelab/internal/runner/actorlab"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/companion"
	"github.com/fencelab/fencelab/internal/runner/fencinglab"
	"github.com/fencelab/fencelab/internal/runner/historylab"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/mailboxlab"
	"github.com/fencelab/fencelab/internal/runner/sessionlab"
	"github.com/fencelab/fencelab/internal/runner/torturelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Commands is every runner command, in chapter order; the usage text lists
// them in this order.
var Commands = []cli.Command{
	mailboxlab.Naive,
	mailboxlab.Claim,
	mailboxlab.Lease,
	mailboxlab.DeadLetter,
	fencinglab.Fencing,
	sessionlab.Incarnation,
	actorlab.Actors,
	torturelab.Torture,
	historylab.History,
	lockservicelab.Lockservice,
}

// Main runs the runner with the process's own arguments and streams and
// returns its exit status. An interrupt, SIGTERM or SIGHUP cancels the
// experiment, which stops its workers; the frame removes its temporary
// directory. A process started as a worker plays its role instead, if
// its parent really started it.
//
// The fencelab binary carries no etcd: its chapter 10 commands hand
// themselves to the companion (package companion), whose main calls
// MainWith.
func Main() int { return MainWith(nil) }

// MainWith is Main for a program that links in more worker roles: the
// etcd roles of chapter 10 (package etcdroles), in the companion and in
// chapter 10's tests. Their commands then run in this process.
func MainWith(roles []worker.Role) int {
	ctx, stop := cli.WithInterrupts(context.Background())
	defer stop()
	companion.Link(roles)
	if worker.Entered() {
		return worker.Main(ctx, append(cli.Roles(Commands), roles...), os.Stderr)
	}
	return cli.Main(ctx, Commands, os.Args[1:], os.Stdout, os.Stderr)
}
