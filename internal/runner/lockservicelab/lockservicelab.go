// Package lockservicelab holds the runner's lockservice experiment
// (chapter 10): authority granted by a real lock service in one place and
// checked by a store in another. Three etcd members, each its own
// process, grant a lock; worker processes A and B take it through etcd's
// client, and write to a SQLite store that fences each write with the
// lock's token, the revision of the holder's lock key. Four cases break
// the promise a lock seems to make, each in its own way: a holder paused
// past its lease, a holder cut off from the cluster, a leader killed, a
// majority lost. A fifth shows the fence's own limit: a paused holder
// whose write arrives before its successor's first is accepted, and so
// is the successor's; the fence orders writes, it does not exclude them.
// Beside it, the remedy: the successor claims the destination's mark
// before it works.
//
// The experiment coordinates and links in no etcd: the members, the
// proxy and the lock workers are roles package etcdroles plays. A program
// without them (the fencelab binary) hands the whole command to the one
// that has them (package companion).
package lockservicelab

import (
	"context"
	"flag"
	"strings"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/companion"
)

// Lockservice is the runner's "lockservice" command (chapter 10).
var Lockservice = cli.Command{
	Name:    "lockservice",
	Summary: "a three-member etcd cluster grants a lock; a worker paused, cut off, or behind a lost leader or quorum writes to a store fenced by the lock's revision",
	New:     func(fs *flag.FlagSet) cli.Experiment { return newFlags(fs) },
}

// caseAll runs every case.
const caseAll = "all"

// flags is one configured run.
type flags struct {
	caseName string
	fence    string
}

func newFlags(fs *flag.FlagSet) *flags {
	f := &flags{caseName: caseAll, fence: "on"}
	fs.StringVar(&f.caseName, "case", caseAll, "the case to run, `NAME`: "+strings.Join(append(caseNames(), caseAll), ", "))
	fs.StringVar(&f.fence, "fence", "on", "whether the destination checks the token: `on|off`")
	return f
}

func (f *flags) Validate() error {
	if err := cli.OneOf("case", f.caseName, append(caseNames(), caseAll)); err != nil {
		return err
	}
	return cli.OneOf("fence", f.fence, []string{"on", "off"})
}

// Run runs the cases, or, in a program that does not carry etcd, hands
// the whole command line to the companion that does, which never returns.
func (f *flags) Run(ctx context.Context, env cli.Env) (any, error) {
	if !companion.Linked() {
		return nil, companion.Exec(ctx, env)
	}
	var run []scenario
	for _, c := range scenarios {
		if f.caseName == caseAll || f.caseName == c.name {
			run = append(run, c)
		}
	}
	return runCases(ctx, env, run, f.fence == "on")
}
