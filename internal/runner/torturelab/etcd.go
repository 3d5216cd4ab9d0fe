package torturelab

// This file holds the coordinator of torture --lock etcd (chapter 10):
// the same storm as the mailbox run, with the authority taken from a
// three-member etcd cluster. Every worker locks a message in etcd, writes
// its effect to a store fenced by the lock's revision, completes it
// there, and releases the lock. The plan pauses some workers past their
// lease (a real SIGSTOP, asked for by the worker itself, so that no
// keep-alive leaves it), kills workers with kill -9, and kills members,
// one at a time, each started again from its data before the next kill.
// The audit reads the store's own log of what it accepted, and judges
// every accepted write against the locks the workers recorded winning
// (grants.go). With --fence off the store compares no tokens, so that
// the stale writes show. Every worker also keeps a history of its calls
// on the store; --check linearizable checks it with porcupine against
// the fenced store's specification (package history).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// storeFile is the fenced store of an etcd run.
const storeFile = "destination.db"

// etcdPlan is the plan of an etcd run: the mailbox plan's worker kills
// and owner names, and the member kills. A kill is armed once the store
// has accepted that many writes.
type etcdPlan struct {
	runPlan
	MemberKills []memberKill `json:"member_kills"`
	TTL         int          `json:"ttl_seconds"`
	// Fence says whether the store compares tokens (--fence on).
	Fence bool `json:"-"`
}

// memberKill is one planned kill -9 of a member, and its restart.
type memberKill struct {
	AfterWrites int    `json:"after_writes"`
	Member      string `json:"member"`
	index       int
}

// newEtcdPlan splits kills between workers (half, rounded up) and members.
func newEtcdPlan(seed int64, processes, messages, kills int, leaseMs int64, fence bool) etcdPlan {
	ttl := max(int((leaseMs+999)/1000), 1)
	p := etcdPlan{runPlan: newPlan(seed, processes, messages, kills-kills/2, leaseMs), TTL: ttl, MemberKills: []memberKill{}, Fence: fence}
	p.Failing = failing{} // no message fails here: every one must end completed
	r := rand.New(rand.NewPCG(uint64(seed), streamMemberKills))
	var at []int
	for range kills / 2 {
		at = append(at, r.IntN(messages*killWindow/1000+1))
	}
	slices.Sort(at)
	for _, n := range at {
		i := r.IntN(lockservicelab.Members)
		p.MemberKills = append(p.MemberKills, memberKill{AfterWrites: n, Member: fmt.Sprintf("member-%d", i+1), index: i})
	}
	return p
}

// streamMemberKills is the stream of the member kills' random numbers.
const streamMemberKills = 4

// etcdRun is the coordinator of one etcd run: its crewDriver starts,
// kills and replaces the workers, and answers their pauses.
type etcdRun struct {
	crewDriver
	plan    etcdPlan
	store   string
	records string
	history string
	db      *sqlitedb.DB
	cl      *lockservicelab.Cluster
	mkills  int // member kills done
	// paused counts the workers stopped now (pause): awaitSuccessor
	// resumes a worker rather than wait when no other one runs.
	paused atomic.Int64
	// When each member kill was done, for the picture.
	membersKilledAt []killMark
}

// runEtcd performs an etcd torture run and audits the store.
func runEtcd(ctx context.Context, env cli.Env, base runPlan, messages int, fence bool, check historyCheck) (*etcdResult, error) {
	began := time.Now()
	beganMs := clock.Wall{}.Now() // the picture's zero, on the records' clock
	p := newEtcdPlan(base.Seed, base.processes, messages, len(base.Kills), base.LeaseMs, fence)
	c := &etcdRun{
		plan: p, store: filepath.Join(env.Dir, storeFile), records: filepath.Join(env.Dir, recordsDir), history: filepath.Join(env.Dir, historyDir),
		crewDriver: newCrewDriver(p.Owners[:p.processes], p.Kills, worker.Start, EtcdWorkerRole, stallLimit(int64(p.TTL)*1000)),
	}
	c.argsOf, c.crewDriver.pause = c.args, c.pause
	for _, dir := range []string{c.records, c.history} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
	}
	db, err := sqlitedb.Open(ctx, c.store)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	c.db = db
	keys, err := fillStore(ctx, db, messages)
	if err != nil {
		return nil, err
	}
	if c.cl, err = lockservicelab.StartCluster(ctx, env.Dir); err != nil {
		return nil, err
	}
	defer c.cl.Stop()
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	defer c.crew.Stop()
	ended, err := c.drive(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.crew.Wait(); err != nil {
		return nil, fmt.Errorf("stopping the workers: %w", err)
	}
	logs, err := readLogs(c.records)
	if err != nil {
		return nil, err
	}
	d, err := readDestination(ctx, db, keys)
	if err != nil {
		return nil, err
	}
	f := auditEtcd(d, logs)
	res := summarizeEtcd(p, messages, logs, d, f)
	res.Killed, res.MembersKilled, res.Ended = c.kills, c.mkills, ended
	res.story = story{beganMs: beganMs, endedMs: clock.Wall{}.Now(), logs: logs, kills: c.killedAt, members: c.membersKilledAt, findings: f.Findings}
	if check.on {
		if res.Check, err = checkHistory(c.history, history.Store(), check.page); err != nil {
			return nil, err
		}
	}
	res.Seconds = float64(time.Since(began).Milliseconds()) / 1000
	if !f.Clean() {
		return res, cli.Findingf("%s", f.Summary())
	}
	if res.Check != nil && res.Check.Linearizable == false {
		return res, cli.Findingf("the store's history of calls is not linearizable: no order of the calls, each placed between its call and its return, gives every answer the store gave")
	}
	return res, nil
}

// fillStore creates the store with a key per message.
func fillStore(ctx context.Context, db *sqlitedb.DB, messages int) ([]string, error) {
	if err := fencedstore.CreateSchema(ctx, db); err != nil {
		return nil, err
	}
	s := fencedstore.Open(db, fencedstore.Fence)
	keys := make([]string, messages)
	for i := range keys {
		keys[i] = messageID(i + 1)
		if err := s.Add(ctx, keys[i]); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// args returns the handshake arguments of the start-th process of slot.
func (c *etcdRun) args(slot, start int, owner string) []string {
	return EtcdWorkerArgs{
		Endpoints: c.cl.Endpoints(), Store: c.store, Records: filepath.Join(c.records, recordFile(slot, start)),
		History: filepath.Join(c.history, recordFile(slot, start)),
		Owner:   owner, Slot: slot, Start: start, Seed: c.plan.Seed, TTL: c.plan.TTL, Fence: c.plan.Fence,
	}.encode()
}

// pause stops p for the time it asked and then until a successor has
// claimed the mark of the key p holds (awaitSuccessor), resumes it, and
// tells it so. The time asked is past the lease, but on a busy machine
// the other workers may not get to that key before it is up; the wait
// makes every pause test the fence: p's write comes after a newer
// holder's claim, and the store must refuse it (--fence on).
func (c *etcdRun) pause(p *worker.Process, req PauseRequest) {
	if lockservicelab.Pause(p.Pid) != nil {
		return // it is gone
	}
	c.paused.Add(1)
	time.Sleep(time.Duration(req.PauseMs) * time.Millisecond)
	c.awaitSuccessor(p, req)
	_ = lockservicelab.Resume(p.Pid)
	c.paused.Add(-1)
	_ = p.Send(req)
}

// successorPoll is how often a paused worker's parent reads the store
// for its successor's claim.
const successorPoll = 20 * time.Millisecond

// awaitSuccessor returns once the store's mark for req.Key is past
// req.Token, or the key is completed, or p has ended (killed by the
// plan), or every worker is paused (no successor can come), or the
// run's stall limit has passed. A run never waits for good on a
// successor; a pause that no successor followed tests nothing, and the
// audit's fence_tested says whether any did.
func (c *etcdRun) awaitSuccessor(p *worker.Process, req PauseRequest) {
	giveUp := time.Now().Add(c.stall)
	for time.Now().Before(giveUp) && c.paused.Load() < int64(c.plan.processes) {
		select {
		case <-p.Done():
			return
		default:
		}
		var mark int64
		var done bool
		err := c.db.QueryRow(context.Background(), `SELECT mark, done_token IS NOT NULL FROM resources WHERE key = ?`, req.Key).Scan(&mark, &done)
		if err != nil || mark > req.Token || done {
			return
		}
		time.Sleep(successorPoll)
	}
}

// countEvery is how many ticks an etcd run's coordinator lets pass
// between two reads of the store's progress (50 ms): each read is a query
// on the store the workers write to.
const countEvery = 10

// drive runs the plan's kills until every message is completed, or
// until none has been for the stall limit, and says which. A worker's
// kill is armed by the writes the store has accepted, and so is a
// member's, which comes at once.
func (c *etcdRun) drive(ctx context.Context) (string, error) {
	nextMember := 0
	return c.crewDriver.drive(ctx, driveRules{
		every: countEvery,
		read: func(ctx context.Context) (progress, error) {
			writes, open, err := storeProgress(ctx, c.db)
			return progress{count: writes, open: open}, err
		},
		after: func(now progress) error {
			if nextMember < len(c.plan.MemberKills) && now.count >= c.plan.MemberKills[nextMember].AfterWrites {
				if err := c.killMember(c.plan.MemberKills[nextMember]); err != nil {
					return err
				}
				nextMember++
			}
			return nil
		},
		ended: "every message completed",
		stalled: func(open int, limit time.Duration) string {
			return fmt.Sprintf("stalled: %d messages still open, and none was completed for %v", open, limit)
		},
	})
}

// killMember kills a member and starts it again from its data, waiting
// until it has rejoined: never more than one member is down.
func (c *etcdRun) killMember(k memberKill) error {
	c.cl.Kill(k.index)
	c.mkills++
	c.membersKilledAt = append(c.membersKilledAt, killMark{atMs: clock.Wall{}.Now(), worker: k.Member})
	return c.cl.Restart(k.index)
}

// storeProgress reads how many writes the store accepted and how many
// keys are not completed yet.
func storeProgress(ctx context.Context, db *sqlitedb.DB) (writes, open int, err error) {
	err = db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM accepted WHERE op = 'write'),
		(SELECT COUNT(*) FROM resources WHERE done_token IS NULL)`).Scan(&writes, &open)
	if err != nil {
		return 0, 0, fmt.Errorf("read the store's progress: %w", err)
	}
	return writes, open, nil
}

// readDestination reads the store once every worker has stopped.
func readDestination(ctx context.Context, db *sqlitedb.DB, keys []string) (audit.Destination, error) {
	d := audit.Destination{Keys: keys, Resources: map[string]fencedstore.Resource{}}
	s := fencedstore.Open(db, fencedstore.Fence)
	for _, k := range keys {
		r, err := s.Get(ctx, k)
		if err != nil {
			return d, err
		}
		d.Resources[k] = r
	}
	var err error
	if d.Log, err = s.Accepted(ctx); err != nil {
		return d, err
	}
	d.Integrity, err = integrityCheck(ctx, db)
	return d, err
}
