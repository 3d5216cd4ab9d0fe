package mailboxlab

// This file holds what naive and claim share: their flags, and starting
// worker processes on one ledger.

import (
	"context"
	"flag"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

var (
	processesFlag = cli.IntFlag{Name: "processes", Min: 2, Max: 16}
	roundsFlag    = cli.IntFlag{Name: "rounds", Min: 1, Max: 10000}
)

// raceFlags are the flags of naive and claim: by default two workers in a
// fixed handshake; with --race, N workers racing with no ordering at all.
// They also say how the workers are started.
type raceFlags struct {
	race      bool
	processes int
	rounds    int
	fs        *flag.FlagSet
	// start starts each worker: worker.Start, a separate OS process. A
	// test gives a starter that fails, to see a run that cannot start
	// its workers fail.
	start worker.Starter
}

func newRaceFlags(fs *flag.FlagSet) *raceFlags {
	f := &raceFlags{fs: fs, processes: 8, rounds: 100, start: worker.Start}
	fs.BoolVar(&f.race, "race", false, "let --processes workers race on a fresh message each round, with no handshake")
	processesFlag.Var(fs, &f.processes, "with --race: how many worker processes, `N` from 2 to 16")
	roundsFlag.Var(fs, &f.rounds, "with --race: how many rounds, `R` from 1 to 10000")
	return f
}

func (f *raceFlags) Validate() error {
	given := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if !f.race && (given["processes"] || given["rounds"]) {
		return cli.Usagef("--processes and --rounds go with --race")
	}
	if err := processesFlag.Check(f.processes); err != nil {
		return err
	}
	return roundsFlag.Check(f.rounds)
}

// startWorkers starts one mailbox worker process per name, each with its
// own connection to the ledger in dir, numbered in the order of names.
// The caller must stop or wait for the crew on every path.
func (f *raceFlags) startWorkers(ctx context.Context, dir string, names []string) (*worker.Crew, error) {
	ledger := filepath.Join(dir, ledgerFile)
	args := make([][]string, len(names))
	for i, name := range names {
		args[i] = []string{ledger, name}
	}
	return worker.StartCrew(ctx, f.start, workerRole, args)
}

// addMessage stores one NEW message in the ledger.
func addMessage(ctx context.Context, dir, id, body string) error {
	db, err := openLedger(ctx, dir)
	if err != nil {
		return err
	}
	defer db.Close()
	return mailbox.Open(db, noClock, mailbox.NoLease).Add(ctx, id, body)
}
