package mailboxlab

// This file holds the naive command: two worker processes both read msg-1
// before either writes, then both write. Both believe they own it.

import (
	"context"
	"flag"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Naive is the runner's "naive" command (chapter 1).
var Naive = cli.Command{
	Name:    "naive",
	Summary: "two worker processes read-then-write a claim on msg-1: both believe they own it",
	New:     func(fs *flag.FlagSet) cli.Experiment { return &naiveExperiment{newRaceFlags(fs)} },
	Roles:   []worker.Role{workerRole},
}

type naiveExperiment struct{ *raceFlags }

type naiveResult struct {
	Command     string        `json:"command"`
	Workers     []naiveWorker `json:"workers"`
	OwnerOnDisk string        `json:"owner_on_disk"`
	Believers   int           `json:"believers"`
	// rowAfter is msg-1's row on disk right after each worker's write,
	// read through a connection of the runner's own: the picture's row.
	// The JSON leaves it out.
	rowAfter []mailbox.Message
}

type naiveWorker struct {
	Worker         string `json:"worker"`
	Pid            int    `json:"pid"`
	Saw            string `json:"saw"`
	DecidedToClaim bool   `json:"decided_to_claim"`
	Believes       bool   `json:"believes"`
}

func (e *naiveExperiment) Run(ctx context.Context, env cli.Env) (any, error) {
	if e.race {
		return race(ctx, env, "naive", "naive-claim", e.raceFlags)
	}
	if err := addMessage(ctx, env.Dir, "msg-1", "Restock vanilla"); err != nil {
		return nil, err
	}
	names := []string{workerA, workerB}
	crew, err := e.startWorkers(ctx, env.Dir, names)
	if err != nil {
		return nil, err
	}
	defer crew.Stop()

	res := naiveResult{Command: "naive"}
	// Handshake 1: every worker reads, and reports what it saw, before any
	// worker is allowed to write.
	for i := range names {
		rep, err := worker.Ask[reply](crew.Member(i), request{Op: "read", ID: "msg-1"})
		if err != nil {
			return nil, err
		}
		res.Workers = append(res.Workers, naiveWorker{
			Worker: names[i], Pid: rep.Pid, Saw: rep.State, DecidedToClaim: rep.State == "NEW",
		})
	}
	// Handshake 2: each worker that decided to claim writes, in turn.
	res.rowAfter = make([]mailbox.Message, len(names))
	for i := range names {
		if !res.Workers[i].DecidedToClaim {
			continue
		}
		rep, err := worker.Ask[reply](crew.Member(i), request{Op: "naive-write", ID: "msg-1"})
		if err != nil {
			return nil, err
		}
		res.Workers[i].Believes = rep.Believes
		if rep.Believes {
			res.Believers++
		}
		msg, err := readMessage(ctx, env.Dir, "msg-1")
		if err != nil {
			return nil, err
		}
		res.rowAfter[i] = msg
	}
	if err := crew.Wait(); err != nil {
		return nil, err
	}
	msg, err := readMessage(ctx, env.Dir, "msg-1")
	if err != nil {
		return nil, err
	}
	res.OwnerOnDisk = msg.Owner
	return res, nil
}
