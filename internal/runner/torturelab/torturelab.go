// Package torturelab holds the runner's torture experiment (chapter 9):
// many real worker processes claim, complete and dead-letter the messages
// of one mailbox file with wall-clock leases a few milliseconds long;
// the plan pauses some of them past their lease and kills others with
// kill -9 at moments nobody chose; then the run audits the ledger against
// what every worker was told.
//
// It is the one experiment whose clock is the wall clock (clock.Wall):
// its point is contention nobody ordered. The seed fixes the plan (see
// plan.go); the operating system's scheduling does the rest.
package torturelab

import (
	"context"
	"flag"
	"math"
	"math/rand/v2"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/companion"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Torture is the runner's "torture" command (chapter 9).
var Torture = cli.Command{
	Name:    "torture",
	Summary: "many worker processes, wall-clock leases, pauses past the lease and kill -9 at random moments; then an audit of the ledger",
	New:     func(fs *flag.FlagSet) cli.Experiment { return newFlags(fs) },
	Roles:   []worker.Role{workerRole},
}

// The locks a run can take its authority from: the mailbox's own claims
// (chapter 9), or an etcd cluster's locks with a fenced store (chapter 10).
const (
	lockMailbox = "mailbox"
	lockEtcd    = "etcd"
)

// The values of --fence: whether the fenced store of an etcd run compares
// tokens, as in lockservice.
const (
	fenceOn  = "on"
	fenceOff = "off"
)

// checkLinearizable is the one check --check knows.
const checkLinearizable = "linearizable"

// fenceWord is --fence's value for fence.
func fenceWord(fence bool) string {
	if fence {
		return fenceOn
	}
	return fenceOff
}

// The flags and their ranges (internal/runner/CONTRACT.md, section
// "fencelab torture").
var (
	processesFlag = cli.IntFlag{Name: "processes", Min: 2, Max: 16}
	messagesFlag  = cli.IntFlag{Name: "messages", Min: 1, Max: 100000}
	killsFlag     = cli.IntFlag{Name: "kills", Min: 0, Max: 1000}
	leaseMsFlag   = cli.IntFlag{Name: "lease-ms", Min: 1, Max: 60000}
	seedFlag      = cli.IntFlag{Name: "seed", Min: 0, Max: math.MaxInt}
)

// flags is one configured run.
type flags struct {
	processes, messages, kills, leaseMs, seed int
	lock, fence                               string
	check, visualize                          string
	fs                                        *flag.FlagSet
	// handOff runs the etcd companion in place of this process, for a
	// fencelab built without etcd; a test replaces it.
	handOff func(context.Context, cli.Env) error
}

func newFlags(fs *flag.FlagSet) *flags {
	f := &flags{processes: 8, messages: 2000, kills: 20, leaseMs: 40, lock: lockMailbox, fence: fenceOn, fs: fs, handOff: companion.Exec}
	processesFlag.Var(fs, &f.processes, "how many worker processes run at once, `N` from 2 to 16")
	messagesFlag.Var(fs, &f.messages, "how many messages the run adds, `M` from 1 to 100000")
	killsFlag.Var(fs, &f.kills, "how many times a worker is killed with kill -9 and restarted, `K` from 0 to 1000")
	leaseMsFlag.Var(fs, &f.leaseMs, "the lease of every claim, in wall-clock milliseconds, `L` from 1 to 60000")
	fs.StringVar(&f.lock, "lock", lockMailbox, "where the authority comes from: `mailbox|etcd` (etcd: a three-member etcd cluster's locks, and a store fenced by their revisions)")
	fs.StringVar(&f.fence, "fence", fenceOn, "whether the fenced store of --lock etcd checks the token: `on|off` (off: the weakened store, so that stale writes show)")
	fs.StringVar(&f.check, "check", "", "check the history of the workers' calls: `linearizable` (porcupine, against the sequential specification of the mailbox, or of the fenced store with --lock etcd)")
	fs.StringVar(&f.visualize, "visualize", "", "write porcupine's page of the checked history to `FILE.html` (needs --check)")
	seedFlag.Var(fs, &f.seed, "the seed that fixes the plan, `S` a non-negative decimal integer (default: a random one, printed)")
	return f
}

func (f *flags) Validate() error {
	if err := cli.OneOf("lock", f.lock, []string{lockMailbox, lockEtcd}); err != nil {
		return err
	}
	if err := cli.OneOf("fence", f.fence, []string{fenceOn, fenceOff}); err != nil {
		return err
	}
	if f.fence == fenceOff && f.lock != lockEtcd {
		return cli.Usagef("--fence off needs --lock etcd: a mailbox run has no fenced store")
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
	}{{processesFlag, f.processes}, {messagesFlag, f.messages}, {killsFlag, f.kills}, {leaseMsFlag, f.leaseMs}, {seedFlag, f.seed}} {
		if err := c.flag.Check(c.v); err != nil {
			return err
		}
	}
	given := false
	f.fs.Visit(func(fl *flag.Flag) {
		if fl.Name == seedFlag.Name {
			given = true
		}
	})
	if !given {
		f.seed = rand.IntN(math.MaxInt)
	}
	return nil
}

func (f *flags) Run(ctx context.Context, env cli.Env) (any, error) {
	p := newPlan(int64(f.seed), f.processes, f.messages, f.kills, int64(f.leaseMs))
	if f.lock == lockEtcd {
		if !companion.Linked() {
			return nil, f.handOff(ctx, env)
		}
		return runEtcd(ctx, env, p, f.messages, f.fence == fenceOn, historyCheck{on: f.check != "", page: f.visualize})
	}
	return run(ctx, env, p, f.messages, historyCheck{on: f.check != "", page: f.visualize})
}
