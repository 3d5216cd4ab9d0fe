// Package historylab is the runner's "history" command (chapter 9): worker
// processes call one mechanism at the same time on a few keys, some are
// killed and replaced or paused in the middle of a call on the way, every
// call is recorded with its start, its end and its answer, and the history
// can be checked for linearizability (package history). What a worker
// calls on each mechanism is package calls'.
package historylab

import (
	"context"
	"flag"
	"math"
	"math/rand/v2"
	"time"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/historylab/calls"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// History is the runner's "history" command.
var History = cli.Command{
	Name:    "history",
	Summary: "worker processes call one mechanism at once, some killed or paused on the way; the calls are recorded and checked for linearizability",
	New:     func(fs *flag.FlagSet) cli.Experiment { return newFlags(fs) },
	Roles:   []worker.Role{workerRole},
}

// The flags and their ranges (internal/runner/CONTRACT.md, section
// "fencelab history").
var (
	processesFlag = cli.IntFlag{Name: "processes", Min: 2, Max: 16}
	opsFlag       = cli.IntFlag{Name: "ops", Min: 1, Max: 10000}
	seedFlag      = cli.IntFlag{Name: "seed", Min: 0, Max: math.MaxInt}
)

// checkLinearizable is the one check --check knows.
const checkLinearizable = "linearizable"

// checkBudget bounds one check. Linearizability checking is NP-hard: a
// history it cannot decide in this time is reported "unknown", never
// linearizable.
const checkBudget = 30 * time.Second

type flags struct {
	fs        *flag.FlagSet
	mechanism string
	check     string
	visualize string
	processes int
	ops       int
	seed      int
	// start starts the workers: worker.Start, or a test's starter.
	start worker.Starter
}

func newFlags(fs *flag.FlagSet) *flags {
	f := &flags{fs: fs, start: worker.Start, processes: 4, ops: 100}
	fs.StringVar(&f.mechanism, "mechanism", "mailbox", "the mechanism the workers call: `mailbox|queue|gate|store`")
	fs.StringVar(&f.check, "check", "", "check the history: `linearizable` (porcupine, against the mechanism's sequential specification)")
	fs.StringVar(&f.visualize, "visualize", "", "write porcupine's page of the checked history to `FILE.html` (needs --check)")
	processesFlag.Var(fs, &f.processes, "how many worker processes call at once, `N` from 2 to 16")
	opsFlag.Var(fs, &f.ops, "how many calls each worker makes, `K` from 1 to 10000")
	seedFlag.Var(fs, &f.seed, "the seed of the workers' choices and of the kills, `S` a non-negative decimal integer (default: a random one, printed)")
	return f
}

func (f *flags) Validate() error {
	if err := cli.OneOf("mechanism", f.mechanism, calls.Names()); err != nil {
		return err
	}
	if f.check != "" {
		if err := cli.OneOf("check", f.check, []string{checkLinearizable}); err != nil {
			return err
		}
	}
	if f.visualize != "" && f.check == "" {
		return cli.Usagef("--visualize needs --check linearizable: the page draws what the check found")
	}
	for _, c := range []struct {
		flag cli.IntFlag
		v    int
	}{{processesFlag, f.processes}, {opsFlag, f.ops}, {seedFlag, f.seed}} {
		if err := c.flag.Check(c.v); err != nil {
			return err
		}
	}
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == seedFlag.Name })
	if !given {
		f.seed = rand.IntN(math.MaxInt)
	}
	return nil
}

func (f *flags) Run(ctx context.Context, env cli.Env) (any, error) { return run(ctx, env, f) }
