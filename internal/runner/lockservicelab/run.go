package lockservicelab

// This file holds the run: the cluster and the destination every case
// shares, and the processes each case starts and stops.

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// destinationFile is the destination's database, in the run's directory:
// one key per case, named after it.
const destinationFile = "destination.db"

// lockWait bounds how long a worker waits for a lock that should come:
// far more than a lease of a second and an election take.
const lockWait = 15 * time.Second

// run is one lockservice run in progress.
type run struct {
	ctx   context.Context
	dir   string
	fence bool
	cl    *Cluster
	store string
}

// runCases starts the cluster, runs each case in order, and stops
// everything.
func runCases(ctx context.Context, env cli.Env, cases []scenario, fence bool) (*Result, error) {
	r := &run{ctx: ctx, dir: env.Dir, fence: fence, store: filepath.Join(env.Dir, destinationFile)}
	if err := r.createStore(cases); err != nil {
		return nil, err
	}
	cl, err := StartCluster(ctx, env.Dir)
	if err != nil {
		return nil, err
	}
	defer cl.Stop()
	r.cl = cl
	res := &Result{Command: Lockservice.Name, Fence: map[bool]string{true: "on", false: "off"}[fence],
		Cluster: clusterInfo{Members: memberCount, MinTTL: minTTL}}
	res.FenceGives, res.FenceDoesNotGive = fenceGuarantees(fence)
	for _, sc := range cases {
		c := newCase(sc.name, sc.ttl)
		if err := sc.play(r, c); err != nil {
			return nil, fmt.Errorf("case %s: %w", sc.name, err)
		}
		for _, x := range []*CaseResult{c, c.Remedy} {
			if x == nil {
				continue
			}
			if x.DestinationFinal, err = r.final(x.Case); err != nil {
				return nil, err
			}
			x.judge(fence)
		}
		res.Cases = append(res.Cases, c)
	}
	return res, nil
}

// minTTL is the shortest lease the cluster grants, in seconds (see
// etcdmember.MinTTL, which this package does not import).
const minTTL = 1

// createStore creates the destination with a key per case, and one for
// the remedied run of a case that has one.
func (r *run) createStore(cases []scenario) error {
	db, err := sqlitedb.Open(r.ctx, r.store)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := fencedstore.CreateSchema(r.ctx, db); err != nil {
		return err
	}
	s := fencedstore.Open(db, fencedstore.Fence)
	for _, sc := range cases {
		for _, key := range []string{sc.name, sc.remedy} {
			if key == "" {
				continue
			}
			if err := s.Add(r.ctx, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// final reads the case's key in the destination.
func (r *run) final(key string) (fencedstore.Resource, error) {
	db, err := sqlitedb.Open(r.ctx, r.store)
	if err != nil {
		return fencedstore.Resource{}, err
	}
	defer db.Close()
	return fencedstore.Open(db, fencedstore.Fence).Get(r.ctx, key)
}

// worker starts lock worker name, reaching the cluster at endpoints.
func (r *run) worker(name string, endpoints []string) (*worker.Process, error) {
	return worker.Start(r.ctx, LockRole, encode(LockArgs{Worker: name, Endpoints: endpoints, Store: r.store, Fence: r.fence})...)
}

// proxy starts a proxy with a port for each member, and returns it with
// the endpoints a worker reaches the cluster through it by.
func (r *run) proxy() (*worker.Process, []string, error) {
	ports, err := freePorts(memberCount)
	if err != nil {
		return nil, nil, err
	}
	p, err := worker.Start(r.ctx, ProxyRole, encode(ProxyArgs{Ports: ports, Targets: r.cl.clientPorts()})...)
	if err != nil {
		return nil, nil, err
	}
	var ready LockReply
	if err := p.Recv(&ready); err != nil {
		p.Stop()
		return nil, nil, err
	}
	var eps []string
	for _, port := range ports {
		eps = append(eps, URL(port))
	}
	return p, eps, nil
}

// acquire asks w for the lock of case c, waiting for it, with sessions of
// ttl seconds, and records the grant.
func acquire(c *CaseResult, name string, w *worker.Process) (int64, error) {
	rep, err := worker.Ask[LockReply](w, LockRequest{Op: OpAcquire, Lock: c.Case, TTL: c.TTLSeconds, WaitMs: int(lockWait / time.Millisecond)})
	if err != nil {
		return 0, err
	}
	if rep.Result != Held {
		return 0, fmt.Errorf("%s was refused a lock it had to get: %s %s", name, rep.Result, rep.Reason)
	}
	c.granted(name, rep.Token)
	return rep.Token, nil
}

// try asks w to take the lock of case c if nobody holds it, within wait,
// and records the answer.
func try(c *CaseResult, name string, w *worker.Process, wait time.Duration) error {
	rep, err := worker.Ask[LockReply](w, LockRequest{Op: OpTry, Lock: c.Case, TTL: c.TTLSeconds, WaitMs: int(wait / time.Millisecond)})
	if err != nil {
		return err
	}
	if rep.Result == Held {
		c.granted(name, rep.Token)
		return nil
	}
	c.refused(name, rep)
	return nil
}

// write asks w to write to the destination under its lock, and records
// the destination's answer.
func (r *run) write(c *CaseResult, name string, w *worker.Process, token int64) error {
	rep, err := worker.Ask[LockReply](w, LockRequest{Op: OpWrite, Lock: c.Case})
	if err != nil {
		return err
	}
	return r.wrote(c, name, token, "", rep)
}

// claimMark asks w to claim the destination's mark with its token, a
// call with no effect, and records the destination's answer.
func (r *run) claimMark(c *CaseResult, name string, w *worker.Process, token int64) error {
	rep, err := worker.Ask[LockReply](w, LockRequest{Op: OpClaimMark, Lock: c.Case})
	if err != nil {
		return err
	}
	return r.wrote(c, name, token, claimMarkOp, rep)
}

// wrote records the answer to a write (op "") or a claim of the mark
// (claimMarkOp), with the destination's committed state after it.
func (r *run) wrote(c *CaseResult, name string, token int64, op string, rep LockReply) error {
	after, err := r.final(c.Case)
	if err != nil {
		return err
	}
	c.wrote(name, token, op, rep, Committed{Mark: after.Mark, Writes: after.Writes})
	return nil
}

// checkThenWrite asks w to check its session and write, and returns once
// w has checked, before it writes. finish tells it to go on, calls
// meanwhile (which may resume a paused worker), and records the write.
func (r *run) checkThenWrite(c *CaseResult, name string, w *worker.Process, token int64) (finish func(meanwhile func() error) error, err error) {
	rep, err := worker.Ask[LockReply](w, LockRequest{Op: OpCheckThenWrite, Lock: c.Case})
	if err != nil {
		return nil, err
	}
	if rep.Result != Checked {
		return nil, fmt.Errorf("%s's check before its write: %s %s", name, rep.Result, rep.Reason)
	}
	c.note(name, "session checked: still mine; about to write")
	c.step(step{kind: stepCheck, worker: name})
	return func(meanwhile func() error) error {
		if err := w.Send(LockRequest{Op: OpGo}); err != nil {
			return err
		}
		if err := meanwhile(); err != nil {
			return err
		}
		var rep LockReply
		if err := w.Recv(&rep); err != nil {
			return err
		}
		return r.wrote(c, name, token, "", rep)
	}, nil
}
