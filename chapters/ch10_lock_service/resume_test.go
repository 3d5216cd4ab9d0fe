package lockservice

// This file is about what a holder's look at its session can see after a
// pause: what its own client has been told by its keep-alives, never what
// the cluster decided meanwhile. The holder is a lock worker, a process
// of its own, so that it can be stopped (SIGSTOP) and resumed.

import (
	"encoding/json"
	"strings"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"
	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/chapters/internal/testenv"
	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/fencedstore/fencedstoretest"
	"github.com/fencelab/fencelab/internal/runner/faultproxy"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestResumedHolderSeesOnlyWhatItsKeepAlivesToldIt: worker A holds the
// lock with a lease of 5 s. It is stopped (SIGSTOP) and its traffic to the
// cluster cut; meanwhile its lease ends (the test revokes it, as the
// leader does when a lease runs out) and B takes the lock. Resumed, A
// checks its session and writes: its client has been told nothing, so
// the check passes, and the store, which nobody newer has written to,
// accepts the write. Once A's traffic flows again, its keep-alives are
// answered that the lease is gone: only then does A's check see the end,
// and its next write is never made.
func TestResumedHolderSeesOnlyWhatItsKeepAlivesToldIt(t *testing.T) {
	testenv.MustHavePause(t)
	t.Parallel()
	c := newCluster(t)
	d := fencedstoretest.New(t, "report")
	proxy, err := faultproxy.Listen("127.0.0.1:0", strings.TrimPrefix(c.endpoint, "http://"))
	assert.NilError(t, err, "set-up: start the proxy")
	t.Cleanup(func() { proxy.Close() })
	a := lockWorker(t, "A", "http://"+proxy.Addr(), d.Path)
	held := ask(t, a, lockservicelab.LockRequest{Op: lockservicelab.OpAcquire, Lock: "report", TTL: 5, WaitMs: 10_000})
	assert.Equal(t, held.Result, lockservicelab.Held, "set-up: A's acquire")

	assert.NilError(t, lockservicelab.Pause(a.Pid), "set-up: stop A")
	proxy.Cut()
	revokeHolder(t, c, "report")
	b := c.acquire(c.session(), "report")
	assert.NilError(t, lockservicelab.Resume(a.Pid), "set-up: resume A")

	late := ask(t, a, lockservicelab.LockRequest{Op: lockservicelab.OpWrite, Lock: "report"})
	assert.Check(t, cmp.Equal(late.Result, lockservicelab.Accepted),
		"A's write right after it resumed = %s %s; want accepted: B holds the lock with token %d, but A's client has been told nothing, so its check passes, and no newer token has reached the store",
		late.Result, late.Reason, b.Token())

	proxy.Restore()
	seen := ask(t, a, lockservicelab.LockRequest{Op: lockservicelab.OpCheck, WaitMs: 10_000})
	assert.Check(t, cmp.Equal(seen.Result, lockservicelab.Ended),
		"A's check once its keep-alives could be answered again = %s; want ended: the answer that its lease is gone is how its client learns it", seen.Result)
	again := ask(t, a, lockservicelab.LockRequest{Op: lockservicelab.OpWrite, Lock: "report"})
	assert.Check(t, cmp.Equal(again.Reason, lockservicelab.ReasonSessionEnded),
		"A's write once its client knew = %s %s; want refused session_ended", again.Result, again.Reason)
	assert.Check(t, cmp.Equal(d.Get("report").Writes, int64(1)),
		"writes that took effect; want 1: A wrote after its session had ended, as its own client knew")
}

// lockWorker starts lock worker name, a process of its own that reaches
// the cluster at endpoint and writes to the store in file store. It is
// killed when the test ends.
func lockWorker(t *testing.T, name, endpoint, store string) *worker.Process {
	t.Helper()
	args, err := json.Marshal(lockservicelab.LockArgs{Worker: name, Endpoints: []string{endpoint}, Store: store, Fence: true})
	assert.NilError(t, err)
	p, err := worker.Start(t.Context(), lockservicelab.LockRole, string(args))
	assert.NilError(t, err, "set-up: start lock worker %s", name)
	t.Cleanup(p.Stop)
	return p
}

// ask sends req to the lock worker w and returns its reply, failing the
// test if it gives none.
func ask(t *testing.T, w *worker.Process, req lockservicelab.LockRequest) lockservicelab.LockReply {
	t.Helper()
	rep, err := worker.Ask[lockservicelab.LockReply](w, req)
	assert.NilError(t, err, "lock worker, asked to %s", req.Op)
	return rep
}

// revokeHolder ends the lease of the one key under lock name's prefix,
// the holder's, from another client, as the leader does when the lease
// runs out: the key goes with it.
func revokeHolder(t *testing.T, c *cluster, name string) {
	t.Helper()
	cli := c.client()
	kv, err := cli.Get(t.Context(), etcdlock.Prefix+name+"/", clientv3.WithPrefix())
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(kv.Kvs, 1), "set-up: the keys under lock %s; want the holder's alone", name)
	_, err = cli.Revoke(t.Context(), clientv3.LeaseID(kv.Kvs[0].Lease))
	assert.NilError(t, err, "set-up: revoke the holder's lease")
}
