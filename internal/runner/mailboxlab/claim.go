package mailboxlab

// This file holds the claim command: the same two worker processes use the
// compare-and-set claim, then worker-a completes under a token it was never
// issued and under its own.

import (
	"context"
	"flag"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Claim is the runner's "claim" command (chapter 2).
var Claim = cli.Command{
	Name:    "claim",
	Summary: "two worker processes compare-and-set claim msg-1: exactly one wins, and only its token completes",
	New:     func(fs *flag.FlagSet) cli.Experiment { return &claimExperiment{newRaceFlags(fs)} },
	Roles:   []worker.Role{workerRole},
}

// neverIssued is the token worker-a presents first: no claim in this
// experiment's fresh ledger ever gets near it.
const neverIssued = 99

type claimExperiment struct{ *raceFlags }

type claimResult struct {
	Command   string         `json:"command"`
	Claims    []claimEvent   `json:"claims"`
	Completes []claimEvent   `json:"completes"`
	Final     final          `json:"final"`
	Pids      map[string]int `json:"pids"`
}

type claimEvent struct {
	Worker string `json:"worker"`
	Token  int64  `json:"token,omitempty"`
	cli.Outcome
	// at is when the call was made, for the picture: a handshake step in
	// claim, a logical minute in lease. The JSON leaves it out.
	at int64
}

func (e *claimExperiment) Run(ctx context.Context, env cli.Env) (any, error) {
	if e.race {
		return race(ctx, env, "claim", "claim", e.raceFlags)
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

	res := claimResult{Command: "claim", Pids: map[string]int{}}
	// worker-a's claim reaches the database first, then worker-b's.
	var tokenA int64
	for i := range names {
		rep, err := worker.Ask[reply](crew.Member(i), request{Op: "claim", ID: "msg-1"})
		if err != nil {
			return nil, err
		}
		res.Pids[names[i]] = rep.Pid
		res.Claims = append(res.Claims, claimEvent{Worker: names[i], Token: rep.Token, Outcome: rep.Outcome, at: int64(len(res.Claims) + 1)})
		if i == 0 {
			tokenA = rep.Token
		}
	}
	// worker-a completes first with a token it was never issued, then with
	// the one its claim returned.
	for _, tok := range []int64{neverIssued, tokenA} {
		rep, err := worker.Ask[reply](crew.Member(0), request{Op: "complete", ID: "msg-1", Token: tok})
		if err != nil {
			return nil, err
		}
		res.Completes = append(res.Completes, claimEvent{Worker: workerA, Token: tok, Outcome: rep.Outcome,
			at: int64(len(res.Claims) + len(res.Completes) + 1)})
	}
	if err := crew.Wait(); err != nil {
		return nil, err
	}
	msg, err := readMessage(ctx, env.Dir, "msg-1")
	if err != nil {
		return nil, err
	}
	res.Final = finalOf(msg)
	return res, nil
}

// readMessage reads one message's committed state from the ledger.
func readMessage(ctx context.Context, dir, id string) (mailbox.Message, error) {
	db, err := openLedger(ctx, dir)
	if err != nil {
		return mailbox.Message{}, err
	}
	defer db.Close()
	return mailbox.Open(db, noClock, mailbox.NoLease).Get(ctx, id)
}
