package fencinglab

// This file holds worker A, the old worker: a separate OS process with its
// own connections to both files. It claims JOB-1, reads it, says it is
// paused and blocks. When the coordinator releases it, long after its lease
// expired, it calls the destination with the fence it was issued, as if
// nothing had happened; then it tries to finish. It never checks anything
// itself: whatever protects the destination must live in the destination.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// oldWorkerRole is started with three arguments: the queue file, the
// destination file and the destination's contract.
var oldWorkerRole = cli.Role{Name: "fencing-old-worker", Run: runOldWorker}

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

func runOldWorker(ctx context.Context, args []string, link *cli.Link) error {
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
	say := func(n news) error {
		n.Pid = os.Getpid()
		return link.Send(n)
	}

	// Claim JOB-1 and read it, then pause before calling the destination.
	o, err := await(link, "claim")
	if err != nil {
		return err
	}
	jobs := queue.Open(qdb, clock.Fixed(o.Tick), leaseTicks)
	lease, err := jobs.Claim(ctx, jobID, workerA)
	if err != nil {
		return fmt.Errorf("claim %s at tick %d: %w", jobID, o.Tick, err)
	}
	job, err := jobs.Get(ctx, jobID)
	if err != nil {
		return err
	}
	err = say(news{Result: paused, Fence: lease.Fence, ExpiresAt: lease.ExpiresAt,
		Operation: job.Operation, Units: job.Units})
	if err != nil {
		return err
	}

	// Released: call the destination with the fence the lease carried.
	if _, err := await(link, "call"); err != nil {
		return err
	}
	out, err := callDestination(ctx, gate.Open(ddb, contract), gate.Request{
		Fence: lease.Fence, Operation: job.Operation, Units: job.Units}, workerA, os.Stderr)
	if err != nil {
		return err
	}
	if err := say(news{Result: string(out.Result), View: out.UncommittedView}); err != nil {
		return err
	}

	// Try to finish, with the same fence.
	if o, err = await(link, "finish"); err != nil {
		return err
	}
	result, err := finishResult(queue.Open(qdb, clock.Fixed(o.Tick), leaseTicks).
		Finish(ctx, jobID, workerA, lease.Fence))
	if err != nil {
		return err
	}
	if err := say(news{Result: result}); err != nil {
		return err
	}

	// Done: exit once the coordinator closes the link.
	if err := link.Recv(&o); !errors.Is(err, io.EOF) {
		return fmt.Errorf("after finishing: want the link closed, got order %q (%v)", o.Op, err)
	}
	return nil
}

// await receives the next order and checks it is op.
func await(link *cli.Link, op string) (order, error) {
	var o order
	if err := link.Recv(&o); err != nil {
		return o, fmt.Errorf("waiting for %q: %w", op, err)
	}
	if o.Op != op {
		return o, fmt.Errorf("got order %q; want %q", o.Op, op)
	}
	return o, nil
}

// finishResult turns Finish's answer into the report's word: completed,
// or the refusal reason.
func finishResult(err error) (string, error) {
	if err == nil {
		return "completed", nil
	}
	if reason, ok := queue.ReasonOf(err); ok {
		return string(reason), nil
	}
	return "", err
}
