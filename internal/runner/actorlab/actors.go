// Package actorlab holds the runner's "actors" experiment (chapter 8): an
// actor lease contended by two operating-system processes, execution
// attempts bound to the lease they descend from, and the ordinary run path
// refusing a second process before its provider is ever invoked.
package actorlab

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Actors is the runner's "actors" command (chapter 8).
var Actors = cli.Command{
	Name:    "actors",
	Summary: "two processes claim one actor: the actor lease refuses the second before its provider runs",
	New:     func(*flag.FlagSet) cli.Experiment { return experiment{} },
	Roles:   []worker.Role{workerRole},
}

// The story's names. Every assignment belongs to the one actor.
const (
	actorName    = "operator-course"
	leaseMinutes = 15
	ledgerFile   = "actors.db"
)

// The assignments, one per part of the story.
const (
	asgAttempt = "asg-1" // attempts acquired directly
	asgStale   = "asg-2" // a stale lease token tries to start it
	asgFirst   = "asg-3" // process A runs it through the ordinary path
	asgSecond  = "asg-4" // process B tries it while A runs, then after
)

type experiment struct{}

func (experiment) Validate() error { return nil }

type result struct {
	Command                        string       `json:"command"`
	Actor                          string       `json:"actor"`
	LeaseMinutes                   int          `json:"lease_minutes"`
	ActorLeaseCAS                  leaseCAS     `json:"actor_lease_cas"`
	ExecutionAttemptFencing        attemptFence `json:"execution_attempt_fencing"`
	FirstProcessAssignment         assignment   `json:"first_process_assignment"`
	SecondProcessSameActor         secondRun    `json:"second_process_same_actor_different_assignment"`
	AssignmentNeverReachedRunning  string       `json:"assignment_never_reached_running"`
	SameActorNextAssignmentRelease string       `json:"same_actor_next_assignment_after_release"`
	ProcessIDs                     []string     `json:"process_ids"`
	OSPids                         []int        `json:"os_pids"`
	// For the picture only: process A's run, process B's answer to its
	// next try, and the minute of each part of the story.
	firstRun actor.Run
	nextTry  reply
	minutes  minutes
}

// minutes are when each part of the story happened, read from the clock.
type minutes struct {
	lease, attempts, run, nextTry int64
}

type leaseCAS struct {
	ProcessAAcquired    acquired `json:"process_a_acquired"`
	ProcessBWhileAHolds refusal  `json:"process_b_while_a_holds_it"`
	ProcessAReleased    bool     `json:"process_a_released"`
	ProcessBNowAcquires acquired `json:"process_b_now_acquires_cleanly"`
	ProcessBReleased    bool     `json:"process_b_released"`
}

type acquired struct {
	Token     int64  `json:"token"`
	ProcessID string `json:"process_id"`
}

type refusal struct {
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	Holder string `json:"holder,omitempty"` // the holding process, for actor_lease_held
	Token  int64  `json:"token,omitempty"`  // the token presented, for a stale one
}

type attemptFence struct {
	LeaseToken      int64          `json:"lease_token"`
	Acquired        attemptAcquire `json:"acquired"`
	SecondAttempt   refusal        `json:"second_attempt_same_assignment"`
	StaleLeaseToken refusal        `json:"stale_lease_token"`
}

type attemptAcquire struct {
	AttemptID  string `json:"attempt_id"`
	Assignment string `json:"assignment"`
	Token      int64  `json:"token"`
	LeaseToken int64  `json:"lease_token"`
}

type assignment struct {
	Assignment string `json:"assignment"`
	State      string `json:"state"`
	Refused    string `json:"refused,omitempty"` // the reason, if the run was refused
}

type secondRun struct {
	Outcome         string `json:"outcome"`
	Category        string `json:"category,omitempty"`
	Assignment      string `json:"assignment"`
	ProviderInvoked bool   `json:"provider_invoked"`
	ProcessID       string `json:"process_id"`
}

func (experiment) Run(ctx context.Context, env cli.Env) (any, error) {
	path := filepath.Join(env.Dir, ledgerFile)
	db, err := sqlitedb.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := actor.CreateSchema(ctx, db); err != nil {
		return nil, err
	}
	var clk clock.Logical
	a := actor.Open(db, &clk, leaseMinutes) // process A: the runner itself
	for _, id := range []string{asgAttempt, asgStale, asgFirst, asgSecond} {
		if err := a.AddAssignment(ctx, id, actorName); err != nil {
			return nil, err
		}
	}
	b, err := worker.Start(ctx, workerRole, path) // process B: the runner started again
	if err != nil {
		return nil, err
	}
	defer b.Stop()
	hello, err := worker.Ask[reply](b, request{Op: "hello"})
	if err != nil {
		return nil, err
	}
	res := result{Command: "actors", Actor: actorName, LeaseMinutes: leaseMinutes,
		ProcessIDs: []string{a.ID(), hello.ProcessID}, OSPids: []int{os.Getpid(), hello.Pid}}

	// Minute 0, where the clock starts: the actor lease's compare-and-set.
	res.minutes.lease = clk.Now()
	if res.ActorLeaseCAS, err = leaseStory(ctx, a, b); err != nil {
		return nil, err
	}
	// Minute 1: execution attempts.
	clk.Set(1)
	res.minutes.attempts = clk.Now()
	if res.ExecutionAttemptFencing, err = attemptStory(ctx, a, res.ActorLeaseCAS.ProcessAAcquired.Token); err != nil {
		return nil, err
	}

	// Minute 2: process A runs asg-3 through the ordinary path. While its
	// provider runs (A holds the actor lease), process B runs asg-4, a
	// different assignment of the same actor, through the same path.
	clk.Set(2)
	res.minutes.run = clk.Now()
	var second reply
	run, err := a.RunAssignment(ctx, asgFirst, func(ctx context.Context, _ actor.Assignment) (actor.State, error) {
		var err error
		second, err = worker.Ask[reply](b, request{Op: "run", Assignment: asgSecond, Minute: clk.Now()})
		if err != nil {
			return "", err
		}
		asg, err := a.Assignment(ctx, asgSecond)
		if err != nil {
			return "", err
		}
		res.AssignmentNeverReachedRunning = string(asg.State)
		return actor.Completed, nil
	})
	// If B got past the lease and took it over, A's own run is refused:
	// report that, with the state the ledger kept, rather than stop.
	reason, refused := actor.ReasonOf(err)
	if err != nil && !refused {
		return nil, fmt.Errorf("process A runs %s: %w", asgFirst, err)
	}
	if run.Failure != "" {
		return nil, fmt.Errorf("process A runs %s: %s", asgFirst, run.Failure)
	}
	first, err := a.Assignment(ctx, asgFirst)
	if err != nil {
		return nil, err
	}
	res.firstRun = run
	res.FirstProcessAssignment = assignment{Assignment: asgFirst, State: string(first.State), Refused: string(reason)}
	res.SecondProcessSameActor = secondRun{Outcome: second.Result, Category: second.Reason,
		Assignment: asgSecond, ProviderInvoked: second.ProviderInvoked, ProcessID: hello.ProcessID}

	// Minute 3: A released the lease on its way out; B's next try runs.
	clk.Set(3)
	res.minutes.nextTry = clk.Now()
	next, err := worker.Ask[reply](b, request{Op: "run", Assignment: asgSecond, Minute: clk.Now()})
	if err != nil {
		return nil, err
	}
	res.SameActorNextAssignmentRelease = next.State
	res.nextTry = next

	if err := b.WaitClean(); err != nil {
		return nil, err
	}
	return res, nil
}

// leaseStory is the actor-lease compare-and-set between the two
// processes.
func leaseStory(ctx context.Context, a *actor.Process, b *worker.Process) (leaseCAS, error) {
	var out leaseCAS
	la, err := a.AcquireLease(ctx, actorName)
	if err != nil {
		return out, fmt.Errorf("process A acquires %s: %w", actorName, err)
	}
	out.ProcessAAcquired = acquired{Token: la.Token, ProcessID: la.Holder}

	rep, err := worker.Ask[reply](b, request{Op: "acquire", Actor: actorName})
	if err != nil {
		return out, err
	}
	out.ProcessBWhileAHolds = refusal{Result: rep.Result, Reason: rep.Reason, Holder: rep.Holder}

	// If the compare-and-set let B in, A's lease is gone and its release
	// is refused: report that rather than stop.
	err = a.ReleaseLease(ctx, la)
	if _, ok := actor.ReasonOf(err); !ok && err != nil {
		return out, fmt.Errorf("process A releases %s: %w", actorName, err)
	}
	out.ProcessAReleased = err == nil

	if rep, err = worker.Ask[reply](b, request{Op: "acquire", Actor: actorName}); err != nil {
		return out, err
	}
	if rep.Result != "acquired" {
		return out, fmt.Errorf("process B's acquire after A released: %s %s", rep.Result, rep.Reason)
	}
	out.ProcessBNowAcquires = acquired{Token: rep.Token, ProcessID: rep.ProcessID}
	if rep, err = worker.Ask[reply](b, request{Op: "release"}); err != nil {
		return out, err
	}
	out.ProcessBReleased = rep.Result == "released"
	return out, nil
}

// attemptStory acquires execution attempts directly in process A: one
// attempt, a second on the same assignment, and one under A's first
// lease token, released long ago.
func attemptStory(ctx context.Context, a *actor.Process, staleToken int64) (attemptFence, error) {
	var out attemptFence
	l, err := a.AcquireLease(ctx, actorName)
	if err != nil {
		return out, fmt.Errorf("process A acquires %s: %w", actorName, err)
	}
	out.LeaseToken = l.Token
	att, err := a.AcquireAttempt(ctx, asgAttempt, l)
	if err != nil {
		return out, fmt.Errorf("process A's first attempt on %s: %w", asgAttempt, err)
	}
	out.Acquired = attemptAcquire{AttemptID: att.ID, Assignment: att.Assignment, Token: att.Token, LeaseToken: att.LeaseToken}

	_, err = a.AcquireAttempt(ctx, asgAttempt, l)
	if out.SecondAttempt, err = refused(err); err != nil {
		return out, err
	}
	stale := actor.Lease{Actor: actorName, Holder: a.ID(), Token: staleToken}
	_, err = a.AcquireAttempt(ctx, asgStale, stale)
	if out.StaleLeaseToken, err = refused(err); err != nil {
		return out, err
	}
	out.StaleLeaseToken.Token = staleToken
	if err := a.ReleaseLease(ctx, l); err != nil {
		return out, fmt.Errorf("process A releases %s: %w", actorName, err)
	}
	return out, nil
}

// refused describes the answer to a request the story expects refused: a
// refusal with its reason, "granted" if it was not refused, or an error.
func refused(err error) (refusal, error) {
	out, err := cli.OutcomeOf("granted", err, actor.ReasonOf)
	return refusal{Result: out.Result, Reason: out.Reason}, err
}
