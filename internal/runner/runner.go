// Package runner is the fencelab runner: the table of its commands and the
// entry point both the binary (tools/fencelab) and the chapters' test
// scripts call.
package runner

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/fencelab/fencelab/internal/runner/actorlab"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/fencinglab"
	"github.com/fencelab/fencelab/internal/runner/mailboxlab"
	"github.com/fencelab/fencelab/internal/runner/sessionlab"
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
}

// Main runs the runner with the process's own arguments and streams and
// returns its exit status. An interrupt or SIGTERM cancels the experiment,
// which stops its workers and removes its temporary directory.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cli.RoleFromEnv() != "" {
		return cli.RunRole(ctx, Commands, os.Args[1:])
	}
	return cli.Main(ctx, Commands, os.Args[1:], os.Stdout, os.Stderr)
}
