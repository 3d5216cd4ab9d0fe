package drill

// This file holds the flags check and mutate share for their stored
// verdicts: --full, --sample and --seed.

import (
	"flag"
	"math"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// sampleFlag and seedFlag are --sample and --seed.
var (
	sampleFlag = cli.IntFlag{Name: "sample", Min: 0, Max: 100000}
	seedFlag   = cli.IntFlag{Name: "seed", Min: 0, Max: math.MaxInt64}
)

// reuseFlags are the values of --full, --sample and --seed.
type reuseFlags struct {
	fs           *flag.FlagSet
	full         *bool
	sample, seed int
}

// addReuseFlags defines --full, --sample and --seed on fs; what names the
// things judged ("weakening", "mutant").
func addReuseFlags(fs *flag.FlagSet, what string) *reuseFlags {
	f := &reuseFlags{fs: fs, full: fs.Bool("full", false, "judge every "+what+" again, reusing no stored verdict")}
	sampleFlag.Var(fs, &f.sample, "judge `N` reused verdicts again, chosen at random, and fail if one differs")
	seedFlag.Var(fs, &f.seed, "choose the sample with seed `S` (a run prints the one it used)")
	return f
}

// check returns the first misuse among the flags' values, or nil: a
// value out of range, or two flags that cannot mean anything together
// (accepted silently, they would run something other than asked).
func (f *reuseFlags) check() error {
	for _, err := range []error{sampleFlag.Check(f.sample), seedFlag.Check(f.seed)} {
		if err != nil {
			return usagef("%v", err)
		}
	}
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case set["seed"] && f.sample == 0:
		return usagef("--seed S chooses which reused verdicts --sample N judges again; give --sample N with it")
	case *f.full && f.sample > 0:
		return usagef("--full judges everything again and reuses no verdict, so there is nothing for --sample N to choose from; give one of them")
	}
	return nil
}
