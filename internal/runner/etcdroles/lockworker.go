package etcdroles

// This file holds the lock worker: worker A or B of the lockservice
// cases. It takes locks from the cluster with etcd's client and writes to
// the destination with the lock's token, one request from its parent at
// a time.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"

	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// newClient returns an etcd client of endpoints that logs nothing: the
// runner's stderr is for its own diagnostics. The client's own context,
// under which it keeps sessions alive and cleans up after a lock it did
// not get, is a copy of ctx: ending ctx ends all it does (linkend.go).
func newClient(ctx context.Context, endpoints []string) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{
		Context:     ctx,
		Endpoints:   endpoints,
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	})
}

// lockWorker is one lock worker's state.
type lockWorker struct {
	name    string
	cli     *clientv3.Client
	store   *fencedstore.Store
	link    *worker.Link
	session *concurrency.Session
	lock    *etcdlock.Lock
	abandon context.CancelFunc // ends every etcd call, the client's own included
}

func runLockWorker(ctx context.Context, args []string, link *worker.Link) error {
	var a lockservicelab.LockArgs
	if err := lockservicelab.Decode(args, &a); err != nil {
		return err
	}
	// Every request is served under calls, which the link's end cancels.
	calls, endCalls := untilLinkEnds(ctx, link)
	defer endCalls()
	cli, err := newClient(calls, a.Endpoints)
	if err != nil {
		return err
	}
	defer cli.Close()
	db, err := sqlitedb.Open(ctx, a.Store)
	if err != nil {
		return err
	}
	defer db.Close()
	contract := fencedstore.None
	if a.Fence {
		contract = fencedstore.Fence
	}
	w := &lockWorker{name: a.Worker, cli: cli, store: fencedstore.Open(db, contract), link: link, abandon: endCalls}
	defer w.endSession()
	return worker.Serve(link, func(req lockservicelab.LockRequest) (lockservicelab.LockReply, error) {
		return w.handle(calls, req)
	})
}

func (w *lockWorker) handle(ctx context.Context, req lockservicelab.LockRequest) (lockservicelab.LockReply, error) {
	switch req.Op {
	case lockservicelab.OpAcquire, lockservicelab.OpTry:
		return w.take(ctx, req)
	case lockservicelab.OpWrite:
		return w.write(ctx, req.Lock, nil)
	case lockservicelab.OpCheckThenWrite:
		return w.write(ctx, req.Lock, w.waitForGo)
	case lockservicelab.OpCheck:
		return w.check(ctx, time.Duration(req.WaitMs)*time.Millisecond)
	case lockservicelab.OpClaimMark:
		return w.claimMark(ctx, req.Lock)
	case lockservicelab.OpStatus:
		return w.status(ctx)
	case lockservicelab.OpEnd:
		return w.end(ctx)
	}
	return lockservicelab.LockReply{}, fmt.Errorf("lock worker: unknown request %q", req.Op)
}

// take starts a session and acquires (or tries) the lock, within
// req.WaitMs.
func (w *lockWorker) take(ctx context.Context, req lockservicelab.LockRequest) (lockservicelab.LockReply, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(req.WaitMs)*time.Millisecond)
	defer cancel()
	w.endSession()
	s, err := etcdlock.NewSession(ctx, w.cli, req.TTL)
	if err == nil {
		w.session = s
		if req.Op == lockservicelab.OpTry {
			w.lock, err = etcdlock.TryAcquire(ctx, s, req.Lock)
		} else {
			w.lock, err = acquire(ctx, s, req.Lock, w.abandon)
		}
	}
	switch {
	case err == nil:
		return lockservicelab.LockReply{Result: lockservicelab.Held, Token: w.lock.Token()}, nil
	case errors.Is(err, etcdlock.ErrHeld):
		return lockservicelab.LockReply{Result: lockservicelab.Refused, Reason: lockservicelab.ReasonLockHeld}, nil
	case errors.Is(err, context.DeadlineExceeded) && req.Op == lockservicelab.OpTry:
		// A try the cluster did not answer in time. It is called a loss of
		// quorum only on a sign of one: no member that answers knows a
		// leader. A slow answer from a cluster that has one is a timeout.
		reason := lockservicelab.ReasonTimeout
		if !w.someMemberKnowsALeader() {
			reason = lockservicelab.ReasonNoQuorum
		}
		return lockservicelab.LockReply{Result: lockservicelab.Refused, Reason: reason}, nil
	}
	return lockservicelab.LockReply{}, err
}

// statusWait bounds the status question each member is asked after a
// try timed out; a member that cannot answer in it knows no leader to
// tell of.
const statusWait = 500 * time.Millisecond

// someMemberKnowsALeader asks each member the client knows for its
// status, and reports whether one answered and named a leader: a
// majority is then there to grant a lock.
func (w *lockWorker) someMemberKnowsALeader() bool {
	for _, ep := range w.cli.Endpoints() {
		ctx, cancel := context.WithTimeout(context.Background(), statusWait)
		st, err := w.cli.Status(ctx, ep)
		cancel()
		if err == nil && st.Leader != 0 {
			return true
		}
	}
	return false
}

// endSession ends the worker's session, if it has one, without waiting
// for the cluster: it may have none to answer.
func (w *lockWorker) endSession() {
	if w.session != nil {
		w.session.Orphan()
		w.session, w.lock = nil, nil
	}
}

// endWait bounds how long ending a session may take: one revoke.
const endWait = 5 * time.Second

// end ends the worker's session and waits for the cluster to revoke its
// lease, which deletes the lock key attached to it. A lease the cluster
// had already ended (it ran out while the worker was paused or cut off)
// is ended all the same.
func (w *lockWorker) end(ctx context.Context) (lockservicelab.LockReply, error) {
	if w.session == nil {
		return lockservicelab.LockReply{Result: lockservicelab.Ended}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, endWait)
	defer cancel()
	_, err := w.cli.Revoke(ctx, w.session.Lease())
	w.endSession()
	if err != nil && !errors.Is(err, rpctypes.ErrLeaseNotFound) {
		return lockservicelab.LockReply{}, fmt.Errorf("lock worker %s: end its session: %w", w.name, err)
	}
	return lockservicelab.LockReply{Result: lockservicelab.Ended}, nil
}

// write writes to the destination under the lock: Fenced checks the
// session, then, once between has returned (the gap the runner pauses or
// cuts the worker in), the store judges the token.
func (w *lockWorker) write(ctx context.Context, key string, between func() error) (lockservicelab.LockReply, error) {
	if w.lock == nil {
		return lockservicelab.LockReply{}, errors.New("lock worker: a write without a lock")
	}
	err := w.lock.Fenced(ctx, func(ctx context.Context, token int64) error {
		if between != nil {
			if err := between(); err != nil {
				return err
			}
		}
		return w.store.Write(ctx, key, token, w.name)
	})
	if errors.Is(err, etcdlock.ErrSessionEnded) {
		return lockservicelab.LockReply{Result: lockservicelab.Refused, Reason: lockservicelab.ReasonSessionEnded}, nil
	}
	out, err := outcome(err)
	return out, err
}

// outcome turns the store's answer into a reply.
func outcome(err error) (lockservicelab.LockReply, error) {
	if err == nil {
		return lockservicelab.LockReply{Result: lockservicelab.Accepted}, nil
	}
	if reason, ok := fencedstore.ReasonOf(err); ok {
		return lockservicelab.LockReply{Result: lockservicelab.Refused, Reason: string(reason)}, nil
	}
	return lockservicelab.LockReply{}, err
}

// waitForGo tells the parent the session was checked and waits for its
// word to write.
func (w *lockWorker) waitForGo() error {
	if err := w.link.Send(lockservicelab.LockReply{Result: lockservicelab.Checked}); err != nil {
		return err
	}
	var req lockservicelab.LockRequest
	if err := w.link.Recv(&req); err != nil {
		return err
	}
	if req.Op != lockservicelab.OpGo {
		return fmt.Errorf("lock worker: want %q after a check, got %q", lockservicelab.OpGo, req.Op)
	}
	return nil
}

// status asks every member, through the status API, who it is and whom
// it follows.
func (w *lockWorker) status(ctx context.Context) (lockservicelab.LockReply, error) {
	rep := lockservicelab.LockReply{Result: "status"}
	for _, ep := range w.cli.Endpoints() {
		st := lockservicelab.MemberStatus{Endpoint: ep}
		sctx, cancel := context.WithTimeout(ctx, time.Second)
		resp, err := w.cli.Status(sctx, ep)
		cancel()
		if err == nil {
			st.ID = strconv.FormatUint(resp.Header.MemberId, 16)
			st.Leader = strconv.FormatUint(resp.Leader, 16)
		}
		rep.Members = append(rep.Members, st)
	}
	return rep, nil
}
