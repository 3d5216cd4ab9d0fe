package mailboxlab

// This file holds what naive and claim share: their flags, and starting
// worker processes on one ledger.

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

var (
	processesFlag = cli.IntFlag{Name: "processes", Min: 2, Max: 16}
	roundsFlag    = cli.IntFlag{Name: "rounds", Min: 1, Max: 10000}
)

// raceFlags are the flags of naive and claim: by default two workers in a
// fixed handshake; with --race, N workers racing with no ordering at all.
type raceFlags struct {
	race      bool
	processes int
	rounds    int
	fs        *flag.FlagSet
}

func newRaceFlags(fs *flag.FlagSet) *raceFlags {
	f := &raceFlags{fs: fs}
	fs.BoolVar(&f.race, "race", false, "let --processes workers race on a fresh message each round, with no handshake")
	fs.IntVar(&f.processes, "processes", 8, "with --race: how many worker processes, `N` from 2 to 16")
	fs.IntVar(&f.rounds, "rounds", 100, "with --race: how many rounds, `R` from 1 to 10000")
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
// own connection to the ledger in dir. On error it stops the ones it
// started; otherwise the caller must stop them all.
func startWorkers(ctx context.Context, dir string, names []string) ([]*cli.Child, error) {
	ledger := filepath.Join(dir, ledgerFile)
	var kids []*cli.Child
	for _, name := range names {
		c, err := cli.StartChild(ctx, workerRole.Name, ledger, name)
		if err != nil {
			stopAll(kids)
			return nil, err
		}
		kids = append(kids, c)
	}
	return kids, nil
}

func stopAll(kids []*cli.Child) {
	for _, c := range kids {
		c.Stop()
	}
}

// waitAll lets every worker exit by itself and reports the first that did
// not exit cleanly.
func waitAll(kids []*cli.Child) error {
	var first error
	for _, c := range kids {
		exit, err := c.Wait()
		if err == nil && exit.Code != 0 {
			err = fmt.Errorf("worker %d exited with status %d", c.Pid, exit.Code)
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// ask sends req to a worker and returns its reply.
func ask(c *cli.Child, req request) (reply, error) {
	if err := c.Send(req); err != nil {
		return reply{}, err
	}
	var rep reply
	if err := c.Recv(&rep); err != nil {
		return reply{}, err
	}
	return rep, nil
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
