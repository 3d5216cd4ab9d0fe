package actorlab

// This file holds process B: the runner started again as a worker, with
// its own identity and its own connection to the ledger. It does one
// request at a time when the coordinator (process A) says so, which is the
// handshake that orders the story.

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// workerRole is started with one argument: the ledger path.
var workerRole = worker.Role{Name: "actor-worker", Run: runWorker}

// request is what process A asks process B to do.
type request struct {
	Op         string `json:"op"` // hello, acquire, release, run
	Actor      string `json:"actor,omitempty"`
	Assignment string `json:"assignment,omitempty"`
	Minute     int64  `json:"minute"`
}

// reply is process B's answer.
type reply struct {
	ProcessID       string `json:"process_id"`
	Pid             int    `json:"pid"`
	Result          string `json:"result,omitempty"` // acquired, released, completed, refused
	Reason          string `json:"reason,omitempty"`
	Holder          string `json:"holder,omitempty"`
	Token           int64  `json:"token,omitempty"`
	State           string `json:"state,omitempty"` // the assignment's committed state afterwards
	ProviderInvoked bool   `json:"provider_invoked"`
	// A run's lease and attempt tokens, when it got that far.
	LeaseToken   int64 `json:"lease_token,omitempty"`
	AttemptToken int64 `json:"attempt_token,omitempty"`
}

func runWorker(ctx context.Context, args []string, link *worker.Link) error {
	if len(args) != 1 {
		return fmt.Errorf("want one argument LEDGER, got %q", args)
	}
	db, err := sqlitedb.Open(ctx, args[0])
	if err != nil {
		return err
	}
	defer db.Close()
	var clk clock.Logical
	w := &workerState{proc: actor.Open(db, &clk, leaseMinutes)}
	return worker.Serve(link, func(req request) (reply, error) {
		clk.Set(req.Minute)
		rep, err := w.do(ctx, req)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", req.Op, err)
		}
		rep.ProcessID, rep.Pid = w.proc.ID(), os.Getpid()
		return rep, nil
	})
}

type workerState struct {
	proc *actor.Process
	held actor.Lease // the lease this process acquired and has not released
}

func (w *workerState) do(ctx context.Context, req request) (reply, error) {
	switch req.Op {
	case "hello":
		return reply{}, nil
	case "acquire":
		l, err := w.proc.AcquireLease(ctx, req.Actor)
		if err != nil {
			return refusedReply(err)
		}
		w.held = l
		return reply{Result: "acquired", Token: l.Token}, nil
	case "release":
		if err := w.proc.ReleaseLease(ctx, w.held); err != nil {
			return refusedReply(err)
		}
		w.held = actor.Lease{}
		return reply{Result: "released"}, nil
	case "run":
		var rep reply
		run, err := w.proc.RunAssignment(ctx, req.Assignment, func(context.Context, actor.Assignment) (actor.State, error) {
			rep.ProviderInvoked = true
			return actor.Completed, nil
		})
		if err != nil {
			if rep, err = refusedReply(err); err != nil {
				return rep, err
			}
		} else {
			rep.Result = "completed"
			if run.State != actor.Completed {
				rep.Result = string(run.State)
			}
		}
		rep.LeaseToken, rep.AttemptToken = run.Lease.Token, run.Attempt.Token
		asg, err := w.proc.Assignment(ctx, req.Assignment)
		if err != nil {
			return rep, err
		}
		rep.State = string(asg.State)
		return rep, nil
	}
	return reply{}, fmt.Errorf("unknown request %q", req.Op)
}

// refusedReply describes a refusal, or passes any other error on.
func refusedReply(err error) (reply, error) {
	out, other := cli.OutcomeOf("", err, actor.ReasonOf)
	if other != nil {
		return reply{}, other
	}
	rep := reply{Result: out.Result, Reason: out.Reason}
	if r := (*actor.Refusal)(nil); errors.As(err, &r) {
		rep.Holder = r.Holder // whose lease it was
	}
	return rep, nil
}
