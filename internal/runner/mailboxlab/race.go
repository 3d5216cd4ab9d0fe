package mailboxlab

// This file holds race mode: N worker processes race for a fresh message
// each round, with nothing ordering their reads and writes.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// raceResult is the JSON of naive --race and claim --race.
type raceResult struct {
	Command                    string `json:"command"`
	Mode                       string `json:"mode"`
	Processes                  int    `json:"processes"`
	Rounds                     int    `json:"rounds"`
	RoundsWithOneOwner         int    `json:"rounds_with_one_owner"`
	RoundsWithSeveralBelievers int    `json:"rounds_with_several_believers"`
	MaxBelievers               int    `json:"max_believers"`
	// RoundsOwnerNotABeliever counts rounds whose owner on disk is not among
	// the workers that believe they won (or none believes at all).
	RoundsOwnerNotABeliever int `json:"rounds_owner_not_a_believer"`
}

// race runs the race: each round every worker is sent op on the round's
// message at once (the only synchronisation is that the round starts for
// all of them together), and the round's believers are counted. Who is
// the owner on disk is read once every round has been run, so that the
// rounds follow each other as closely as the workers allow.
func race(ctx context.Context, env cli.Env, command, op string, f *raceFlags) (any, error) {
	res := raceResult{Command: command, Mode: "race", Processes: f.processes, Rounds: f.rounds}
	db, err := openLedger(ctx, env.Dir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	box := mailbox.Open(db, noClock, mailbox.NoLease)
	for r := range f.rounds {
		if err := box.Add(ctx, roundMessage(r+1), "race round"); err != nil {
			return nil, err
		}
	}

	names := make([]string, f.processes)
	for i := range names {
		names[i] = fmt.Sprintf("worker-%d", i+1)
	}
	crew, err := f.startWorkers(ctx, env.Dir, names)
	if err != nil {
		return nil, err
	}
	defer crew.Stop()

	believers := make([]map[string]bool, f.rounds) // round r+1's are believers[r]
	for r := range f.rounds {
		req := request{Op: op, ID: roundMessage(r + 1)}
		for i := range names {
			if err := crew.Member(i).Send(req); err != nil {
				return nil, err
			}
		}
		believers[r] = map[string]bool{}
		for i, name := range names {
			var rep reply
			if err := crew.Member(i).Recv(&rep); err != nil {
				return nil, err
			}
			if rep.Believes {
				believers[r][name] = true
			}
		}
	}
	if err := crew.Wait(); err != nil {
		return nil, err
	}

	for r := range f.rounds {
		msg, err := box.Get(ctx, roundMessage(r+1))
		if err != nil {
			return nil, err
		}
		switch n := len(believers[r]); {
		case n == 0: // nobody believes it won
		case n == 1:
			res.RoundsWithOneOwner++
		default:
			res.RoundsWithSeveralBelievers++
		}
		res.MaxBelievers = max(res.MaxBelievers, len(believers[r]))
		if !believers[r][msg.Owner] {
			res.RoundsOwnerNotABeliever++
		}
	}
	return res, nil
}

func roundMessage(r int) string { return fmt.Sprintf("msg-r%d", r) }
