// Package fencinglab holds the runner's "fencing" experiment (chapters 5
// and 6): a worker pauses while holding a queue lease, loses the lease to a
// second worker, resumes, and calls a destination that must decide on its
// own whether to admit it.
//
// Each case uses two fresh SQLite files, a queue (internal/queue) and a
// destination (internal/gate); no transaction spans both. Worker A is a
// separate OS process with its own connections (see oldworker.go); the
// runner itself is the coordinator and acts as worker B (coordinator.go).
// The case table (cases.go) fixes the destination contract and the order in
// which the two workers' calls arrive.
package fencinglab

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Fencing is the runner's "fencing" command (chapters 5 and 6).
var Fencing = cli.Command{
	Name:    "fencing",
	Summary: "a paused worker resumes after losing its queue lease: what does the destination admit?",
	New:     newExperiment,
	Roles:   []worker.Role{oldWorkerRole},
}

// unitsFlag bounds --units: how many units OP-1 adds.
var unitsFlag = cli.IntFlag{Name: "units", Min: 1, Max: 9}

// defaultUnits is --units when not given.
const defaultUnits = 4

// The fixed story every case tells.
const (
	jobID      = "JOB-1"
	operation  = "OP-1"
	workerA    = "A" // the old worker: a child process that pauses
	workerB    = "B" // the new worker: the runner itself
	leaseTicks = 5   // A's lease, claimed at tick 0, expires at tick 5
	tickClaimA = 0
	tickClaimB = 5 // the first tick A's lease has expired
	tickFinish = 6 // A, then B, call finish
)

// experiment is one configured `fencelab fencing` run.
type experiment struct {
	caseName string
	units    int
	fs       *flag.FlagSet
	// start starts each case's worker A: worker.Start, a separate OS
	// process. A test gives a starter of its own, to see what a run does
	// when a case's worker A fails.
	start worker.Starter
}

var _ cli.TextExperiment = (*experiment)(nil)

func newExperiment(fs *flag.FlagSet) cli.Experiment {
	e := &experiment{units: defaultUnits, fs: fs, start: worker.Start}
	fs.StringVar(&e.caseName, "case", "", "run only the case named `NAME` (default: all seven, in order)")
	unitsFlag.Var(fs, &e.units, fmt.Sprintf("how many units OP-1 adds, `N` from %d to %d", unitsFlag.Min, unitsFlag.Max))
	return e
}

// Validate checks --case and --units before anything exists.
func (e *experiment) Validate() error {
	caseGiven := false
	e.fs.Visit(func(f *flag.Flag) {
		if f.Name == "case" {
			caseGiven = true
		}
	})
	if caseGiven {
		if err := cli.OneOf("case", e.caseName, CaseNames()); err != nil {
			return err
		}
	}
	return unitsFlag.Check(e.units)
}

// Run runs the chosen cases, each in its own subdirectory of env.Dir with
// its own worker A. The cases share nothing, so they run at the same time
// (each spends most of its time waiting for a pipe or the disk); the
// report lists them in the table's order all the same. The first case that
// fails stops the others.
func (e *experiment) Run(ctx context.Context, env cli.Env) (any, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var chosen []fencingCase
	for _, c := range cases {
		if e.caseName == "" || c.name == e.caseName {
			chosen = append(chosen, c)
		}
	}
	reports := make([]CaseReport, len(chosen))
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error // the first case to fail; the others only stopped
	)
	for i, c := range chosen {
		wg.Go(func() {
			r, err := runCase(ctx, env.Dir, c, int64(e.units), e.start, env.Stderr)
			if err != nil {
				once.Do(func() {
					first = fmt.Errorf("case %s: %w", c.name, err)
					cancel()
				})
			}
			reports[i] = r
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return Report{Command: "fencing", Units: int64(e.units), Cases: reports}, nil
}

// RunCase runs the case named name with units in a new subdirectory of dir
// and reports it: what the chapters' tests call to check the seed table
// without going through the command line. Worker A is started by start:
// worker.Start makes it a separate OS process, as the runner does;
// worker.StartInProcess runs it on a goroutine with its own connections,
// for a test about the table rather than the processes (its pid is then
// the coordinator's). Warnings go to os.Stderr.
func RunCase(ctx context.Context, dir, name string, units int64, start worker.Starter) (CaseReport, error) {
	for _, c := range cases {
		if c.name == name {
			return runCase(ctx, dir, c, units, start, os.Stderr)
		}
	}
	return CaseReport{}, fmt.Errorf("%w: %q", ErrUnknownCase, name)
}

// ErrUnknownCase is returned by RunCase for a name that is not one of
// CaseNames.
var ErrUnknownCase = errors.New("fencinglab: no such case")
