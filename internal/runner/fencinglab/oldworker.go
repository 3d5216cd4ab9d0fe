package fencinglab

// This file holds worker A, the old worker: a separate OS process with its
// own connections to both files. It claims JOB-1, reads it, says it is
// paused and blocks. When the coordinator releases it, long after its lease
// expired, it calls the destination with the fence it was issued, as if
// nothing had happened; then it tries to finish. It never checks anything
// itself: whatever protects the destination must live in the destination.

import (
	"context"
	"fmt"
	"os"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// oldWorkerRole is started with three arguments: the queue file, the
// destination file and the destination's contract.
var oldWorkerRole = worker.Role{Name: "fencing-old-worker", Run: runOldWorker}

// order is what the coordinator tells worker A to do next. A accepts them
// only in the story's order: claim, call, finish.
type order struct {
	Op   string `json:"op"`
	Tick int64  `json:"tick,omitempty"` // the logical tick A claims or finishes at
}

// news is worker A's answer to one order.
type news struct {
	Pid       int         `json:"pid"`
	Result    string      `json:"result"` // paused; a gate result; completed or a refusal reason
	Fence     int64       `json:"fence,omitempty"`
	ExpiresAt int64       `json:"expires_at,omitempty"`
	Operation string      `json:"operation,omitempty"`
	Units     int64       `json:"units,omitempty"`
	View      *gate.State `json:"view,omitempty"`
}

// paused is the news A sends once it holds the job and has read it.
const paused = "paused"

// finished is what A waits for once it has finished: no order, only the
// link closed. No order is named this.
const finished = "the link closed, having finished"

func runOldWorker(ctx context.Context, args []string, link *worker.Link) error {
	if len(args) != 3 {
		return fmt.Errorf("want arguments QUEUE DESTINATION CONTRACT, got %q", args)
	}
	contract, err := gate.ParseContract(args[2])
	if err != nil {
		return err
	}
	qdb, err := sqlitedb.Open(ctx, args[0])
	if err != nil {
		return err
	}
	defer qdb.Close()
	ddb, err := sqlitedb.Open(ctx, args[1])
	if err != nil {
		return err
	}
	defer ddb.Close()
	a := &oldWorker{queue: qdb, destination: gate.Open(ddb, contract), next: "claim"}
	return worker.Serve(link, func(o order) (news, error) {
		n, err := a.obey(ctx, o)
		n.Pid = os.Getpid()
		return n, err
	})
}

// oldWorker is worker A's state between orders: what it holds, and which
// order the story lets come next.
type oldWorker struct {
	queue       *sqlitedb.DB
	destination *gate.Gate
	next        string // the only order A accepts now; finished once it has finished
	lease       queue.Lease
	job         queue.Job
}

// obey carries out one order, in the story's order: claim, call, finish.
// After finishing, A takes no more orders and exits once the coordinator
// closes the link.
func (a *oldWorker) obey(ctx context.Context, o order) (news, error) {
	if o.Op != a.next {
		return news{}, fmt.Errorf("got order %q; want %s", o.Op, a.next)
	}
	switch o.Op {
	case "claim":
		// Claim JOB-1 and read it, then pause before calling the
		// destination.
		jobs := queue.Open(a.queue, clock.Fixed(o.Tick), leaseTicks)
		lease, err := jobs.Claim(ctx, jobID, workerA)
		if err != nil {
			return news{}, fmt.Errorf("claim %s at tick %d: %w", jobID, o.Tick, err)
		}
		if a.job, err = jobs.Get(ctx, jobID); err != nil {
			return news{}, err
		}
		a.lease, a.next = lease, "call"
		return news{Result: paused, Fence: lease.Fence, ExpiresAt: lease.ExpiresAt,
			Operation: a.job.Operation, Units: a.job.Units}, nil
	case "call":
		// Released: call the destination with the fence the lease carried.
		out, err := callDestination(ctx, a.destination, gate.Request{
			Fence: a.lease.Fence, Operation: a.job.Operation, Units: a.job.Units}, workerA, os.Stderr)
		if err != nil {
			return news{}, err
		}
		a.next = "finish"
		return news{Result: string(out.Result), View: out.UncommittedView}, nil
	default: // "finish"
		// Try to finish, with the same fence.
		result, err := finishResult(queue.Open(a.queue, clock.Fixed(o.Tick), leaseTicks).
			Finish(ctx, jobID, workerA, a.lease.Fence))
		if err != nil {
			return news{}, err
		}
		a.next = finished
		return news{Result: result}, nil
	}
}

// finishResult turns Finish's answer into the report's word: completed,
// or the refusal reason itself (lease_lost).
func finishResult(err error) (string, error) {
	out, err := cli.OutcomeOf("completed", err, queue.ReasonOf)
	if out.Result == cli.Refused {
		return out.Reason, nil
	}
	return out.Result, err
}
