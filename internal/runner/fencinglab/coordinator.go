package fencinglab

// This file holds the coordinator: the runner process, which sets up both
// files, starts worker A, acts as worker B with its own connections, orders
// the destination calls as the case says, and observes committed state
// through connections of its own.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// The two files of a case, inside its own directory.
const (
	queueFile       = "queue.db"
	destinationFile = "destination.db"
)

// coordinator runs one case.
type coordinator struct {
	c     fencingCase
	clk   clock.Logical
	a     *worker.Process
	queue *queue.Queue // worker B's connection to the queue
	gate  *gate.Gate   // worker B's connection to the destination
	// The observer's connections: separate from B's, they read only what
	// has been committed.
	watchQueue *queue.Queue
	watchGate  *gate.Gate
	warn       io.Writer // where the runner's warnings go (its stderr)
	rep        CaseReport
}

// runCase runs case c with units in a new subdirectory of dir, with worker
// A started by start; warnings go to warn.
func runCase(ctx context.Context, dir string, c fencingCase, units int64, start worker.Starter, warn io.Writer) (CaseReport, error) {
	dir = filepath.Join(dir, c.name)
	// The run's folder, private (os.MkdirTemp), already keeps others out.
	if err := os.Mkdir(dir, os.ModePerm); err != nil {
		return CaseReport{}, err
	}
	co := &coordinator{c: c, warn: warn, rep: CaseReport{
		Case: c.name, DestinationContract: c.contract, CoordinatorPid: os.Getpid()}}
	queuePath, destPath := filepath.Join(dir, queueFile), filepath.Join(dir, destinationFile)
	closeAll, err := co.open(ctx, queuePath, destPath, units)
	defer closeAll()
	if err != nil {
		return CaseReport{}, err
	}
	co.a, err = start(ctx, oldWorkerRole, queuePath, destPath, string(c.contract))
	if err != nil {
		return CaseReport{}, err
	}
	defer co.a.Stop()
	if err := co.run(ctx); err != nil {
		return CaseReport{}, err
	}
	return co.rep, nil
}

// open creates both files with JOB-1 queued, and opens B's and the
// observer's connections. The returned function closes them all; call it
// even when open fails.
func (co *coordinator) open(ctx context.Context, queuePath, destPath string, units int64) (func(), error) {
	var dbs []*sqlitedb.DB
	closeAll := func() {
		for _, db := range dbs {
			db.Close()
		}
	}
	for _, path := range []string{queuePath, destPath, queuePath, destPath} {
		db, err := sqlitedb.Open(ctx, path)
		if err != nil {
			return closeAll, err
		}
		dbs = append(dbs, db)
	}
	wq, wd, bq, bd := dbs[0], dbs[1], dbs[2], dbs[3]
	// The observer adds JOB-1 and reads; neither looks at a clock, so it
	// shares B's.
	co.watchQueue = queue.Open(wq, &co.clk, leaseTicks)
	co.watchGate = gate.Open(wd, co.c.contract)
	co.queue = queue.Open(bq, &co.clk, leaseTicks)
	co.gate = gate.Open(bd, co.c.contract)
	if err := queue.CreateSchema(ctx, wq); err != nil {
		return closeAll, err
	}
	if err := co.watchQueue.Add(ctx, jobID, operation, units); err != nil {
		return closeAll, err
	}
	return closeAll, gate.CreateSchema(ctx, wd)
}

func (co *coordinator) run(ctx context.Context) error {
	// A claims at tick 0, reads the job and pauses.
	n, err := co.tellA(order{Op: "claim", Tick: tickClaimA})
	if err != nil {
		return err
	}
	if n.Result != paused {
		return fmt.Errorf("worker A (pid %d) answered %q to its claim; want %q", co.a.Pid, n.Result, paused)
	}
	co.rep.OldWorkerPid = n.Pid
	co.rep.QueueClaims = append(co.rep.QueueClaims,
		Claim{Tick: tickClaimA, Worker: workerA, Fence: n.Fence, ExpiresAt: n.ExpiresAt})
	fenceA := n.Fence

	// B claims once A's lease has expired: a takeover with the next fence.
	co.clk.Set(tickClaimB)
	lease, err := co.queue.Claim(ctx, jobID, workerB)
	if err != nil {
		return fmt.Errorf("worker B's claim at tick %d: %w", tickClaimB, err)
	}
	co.rep.QueueClaims = append(co.rep.QueueClaims,
		Claim{Tick: tickClaimB, Worker: workerB, Fence: lease.Fence, ExpiresAt: lease.ExpiresAt})
	job, err := co.queue.Get(ctx, jobID)
	if err != nil {
		return err
	}

	// The destination calls, in the case's arrival order.
	for _, s := range co.c.order {
		att := Attempt{Tick: co.clk.Now(), Worker: s.worker, Fence: lease.Fence,
			Operation: job.Operation, Units: job.Units + s.extraUnits}
		if s.worker == workerA {
			att.Fence = fenceA
		}
		if att.Before, err = co.watchGate.State(ctx); err != nil {
			return err
		}
		if s.worker == workerA {
			n, err := co.tellA(order{Op: "call"})
			if err != nil {
				return err
			}
			att.Result, att.UncommittedFailureView = gate.Result(n.Result), n.View
		} else {
			out, err := callDestination(ctx, co.gate, gate.Request{
				Fence: att.Fence, Operation: att.Operation, Units: att.Units, FailAfterEffect: s.fail},
				workerB, co.warn)
			if err != nil {
				return err
			}
			att.Result, att.UncommittedFailureView = out.Result, out.UncommittedView
		}
		if att.After, err = co.watchGate.State(ctx); err != nil {
			return err
		}
		j, err := co.watchQueue.Get(ctx, jobID)
		if err != nil {
			return err
		}
		att.QueueAfterDestination = queueRow(j)
		co.rep.Attempts = append(co.rep.Attempts, att)
	}

	// A tries to finish with its old fence, then exits; then B finishes.
	co.clk.Set(tickFinish)
	if n, err = co.tellA(order{Op: "finish", Tick: co.clk.Now()}); err != nil {
		return err
	}
	co.rep.OldWorkerFinish = Finish{Tick: co.clk.Now(), Fence: fenceA, Result: n.Result}
	if co.rep.OldWorkerExit, err = co.a.Wait(); err != nil {
		return fmt.Errorf("worker A: %w", err)
	}
	if co.rep.OldWorkerExit.Code != 0 {
		return fmt.Errorf("worker A (pid %d) exited with status %d", co.a.Pid, co.rep.OldWorkerExit.Code)
	}
	result, err := finishResult(co.queue.Finish(ctx, jobID, workerB, lease.Fence))
	if err != nil {
		return fmt.Errorf("worker B's finish: %w", err)
	}
	co.rep.NewWorkerFinish = Finish{Tick: co.clk.Now(), Fence: lease.Fence, Result: result}

	j, err := co.watchQueue.Get(ctx, jobID)
	if err != nil {
		return err
	}
	co.rep.QueueFinal = queueFinal(j)
	co.rep.DestinationFinal, err = co.watchGate.State(ctx)
	return err
}

// tellA sends worker A an order and returns its news.
func (co *coordinator) tellA(o order) (news, error) {
	n, err := worker.Ask[news](co.a, o)
	if err != nil {
		// Silent or gone: either way it will not take another order, and
		// runCase stops it on the way out.
		return news{}, fmt.Errorf("worker A (pid %d) gave no answer to %s: %w", co.a.Pid, o.Op, err)
	}
	return n, nil
}
