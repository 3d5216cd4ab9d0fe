package lockservicelab

// This file holds the cases, each a fixed order of events: the runner,
// not a race, decides who does what when. Only the lease's end is the
// cluster's to decide, on its leader's clock; B's acquire waits for it.

import (
	"fmt"
	"time"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// scenario is one case: its name, what it shows, the lease of its
// sessions, and how it is played. A case that also shows a remedy plays
// it under a lock and a destination key of its own, named remedy.
type scenario struct {
	name   string
	about  string
	ttl    int // seconds
	play   func(r *run, c *CaseResult) error
	remedy string
}

// scenarios are the cases, in the order --case all runs them. The cases
// that wait a lease out use the shortest lease the cluster grants; the
// two that do not wait use a longer one, so that A's own client never
// gives its session up while the cluster elects a leader.
var scenarios = []scenario{
	{name: "pause-past-ttl", about: "A checks its lock and is paused (SIGSTOP) before its write; its lease runs out, B takes the lock and writes; A resumes and writes", ttl: minTTL, play: pausePastTTL},
	{name: "partition", about: "A checks its lock, then its traffic to the cluster is cut; its lease runs out, B takes the lock and writes; A, which still reaches the destination, writes", ttl: minTTL, play: partition},
	{name: "leader-lost", about: "the member leading the cluster is killed while A holds the lock; A writes; B tries to take the lock", ttl: 5, play: leaderLost},
	{name: "quorum-lost", about: "two of the three members are killed while A holds the lock; B tries to take it; A writes", ttl: 5, play: quorumLost},
	{name: "late-write-before-successor", about: "A checks its lock and is paused (SIGSTOP) before its write; its lease runs out, B takes the lock but has not written; A resumes and writes, then B writes", ttl: minTTL, play: lateWriteBeforeSuccessor, remedy: successorClaimsMark},
}

// successorClaimsMark is the remedied run of late-write-before-successor,
// as its lock and its key in the destination are named.
const successorClaimsMark = "successor-claims-mark"

// successorClaimsMarkAbout is what the remedied run shows.
const successorClaimsMarkAbout = "the same, except that B, once it holds the lock, claims the destination's mark with its token (no effect) before it works; A's late write now finds the mark above its token"

// scenarioAbout is what case name shows, in its table's words.
func scenarioAbout(name string) string {
	if name == successorClaimsMark {
		return successorClaimsMarkAbout
	}
	for _, s := range scenarios {
		if s.name == name {
			return s.about
		}
	}
	return ""
}

func caseNames() []string {
	var names []string
	for _, s := range scenarios {
		names = append(names, s.name)
	}
	return names
}

// endSessions asks each worker to end its session, and waits until the
// cluster has: every lock key of the case is deleted before the next case
// begins. A key left to its lease would be deleted at a moment of the
// leader's choosing, a revision that might fall before or after the next
// case's keys were created; with the keys gone, the next case's tokens
// are the same on every run.
func endSessions(ws ...*worker.Process) error {
	for _, w := range ws {
		rep, err := worker.Ask[LockReply](w, LockRequest{Op: OpEnd})
		if err != nil {
			return err
		}
		if rep.Result != Ended {
			return fmt.Errorf("a worker's session did not end: %s %s", rep.Result, rep.Reason)
		}
	}
	return nil
}

// pair starts workers A (through endpoints a) and B (straight to the
// cluster), and returns them with the function that stops both.
func pair(r *run, a []string) (wa, wb *worker.Process, stop func(), err error) {
	if wa, err = r.worker("A", a); err != nil {
		return nil, nil, nil, err
	}
	if wb, err = r.worker("B", r.cl.Endpoints()); err != nil {
		wa.Stop()
		return nil, nil, nil, err
	}
	return wa, wb, func() { wa.Stop(); wb.Stop() }, nil
}

func pausePastTTL(r *run, c *CaseResult) error {
	a, b, stop, err := pair(r, r.cl.Endpoints())
	if err != nil {
		return err
	}
	defer stop()
	resumeAndWrite, err := r.pausedBeforeWrite(c, a)
	if err != nil {
		return err
	}
	if _, err := acquire(c, "B", b); err != nil {
		_ = Resume(a.Pid)
		return err
	}
	if err := r.write(c, "B", b, c.highestGranted); err != nil {
		return err
	}
	if err := resumeAndWrite(); err != nil {
		return err
	}
	return endSessions(a, b)
}

// pausedBeforeWrite has A take the lock, check it, and be paused
// (SIGSTOP) between its check and its write: the stale holder of
// pause-past-ttl and late-write-before-successor. resumeAndWrite lets A
// run again (SIGCONT) and waits for its write's answer.
func (r *run) pausedBeforeWrite(c *CaseResult, a *worker.Process) (resumeAndWrite func() error, err error) {
	ta, err := acquire(c, "A", a)
	if err != nil {
		return nil, err
	}
	finish, err := r.checkThenWrite(c, "A", a, ta)
	if err != nil {
		return nil, err
	}
	if err := Pause(a.Pid); err != nil {
		return nil, err
	}
	c.fault(step{kind: stepPause, worker: "A"}, "A paused (SIGSTOP): no keep-alive reaches the leader")
	return func() error {
		return finish(func() error {
			c.fault(step{kind: stepResume, worker: "A"}, "A resumed (SIGCONT)")
			return Resume(a.Pid)
		})
	}, nil
}

func partition(r *run, c *CaseResult) error {
	proxy, through, err := r.proxy()
	if err != nil {
		return err
	}
	defer proxy.Stop()
	a, b, stop, err := pair(r, through)
	if err != nil {
		return err
	}
	defer stop()
	ta, err := acquire(c, "A", a)
	if err != nil {
		return err
	}
	finish, err := r.checkThenWrite(c, "A", a, ta)
	if err != nil {
		return err
	}
	if _, err := worker.Ask[LockReply](proxy, ProxyRequest{Op: "cut"}); err != nil {
		return err
	}
	c.fault(step{kind: stepCut, worker: "A"}, "A's traffic to every member cut; A still reaches the destination")
	if _, err := acquire(c, "B", b); err != nil {
		return err
	}
	if err := r.write(c, "B", b, c.highestGranted); err != nil {
		return err
	}
	if err := finish(func() error { return nil }); err != nil {
		return err
	}
	if _, err := worker.Ask[LockReply](proxy, ProxyRequest{Op: "restore"}); err != nil {
		return err
	}
	c.fault(step{kind: stepRestore, worker: "A"}, "A's traffic restored")
	return endSessions(a, b)
}

func leaderLost(r *run, c *CaseResult) error {
	a, b, stop, err := pair(r, r.cl.Endpoints())
	if err != nil {
		return err
	}
	defer stop()
	ta, err := acquire(c, "A", a)
	if err != nil {
		return err
	}
	leader, err := r.cl.leader(b)
	if err != nil {
		return err
	}
	r.cl.Kill(leader)
	c.fault(step{kind: stepKill, members: 1}, "%s, the leader, killed (kill -9)", r.cl.Name(leader))
	if err := r.write(c, "A", a, ta); err != nil {
		return err
	}
	// B tries once the two members left have elected a leader: a request
	// made before would wait for the election anyway, or for a proposal
	// sent to the dead leader to time out.
	next, err := r.cl.awaitLeader(r.ctx, b, lockWait)
	if err != nil {
		return err
	}
	c.noteCluster("%s elected leader", r.cl.Name(next))
	c.step(step{kind: stepElected})
	if err := try(c, "B", b, lockWait); err != nil {
		return err
	}
	if err := r.cl.Restart(leader); err != nil {
		return err
	}
	c.fault(step{kind: stepRestart}, "%s restarted from its data", r.cl.Name(leader))
	return endSessions(a, b)
}

// quorumWait is how long B tries for a lock a cluster without a majority
// cannot grant.
const quorumWait = 1500 * time.Millisecond

func quorumLost(r *run, c *CaseResult) error {
	a, b, stop, err := pair(r, r.cl.Endpoints())
	if err != nil {
		return err
	}
	defer stop()
	ta, err := acquire(c, "A", a)
	if err != nil {
		return err
	}
	leader, err := r.cl.leader(b)
	if err != nil {
		return err
	}
	other := (leader + 1) % memberCount
	r.cl.Kill(leader)
	r.cl.Kill(other)
	c.fault(step{kind: stepKill, members: 2}, "%s (the leader) and %s killed (kill -9): one member of three left, no majority", r.cl.Name(leader), r.cl.Name(other))
	if err := try(c, "B", b, quorumWait); err != nil {
		return err
	}
	if err := r.write(c, "A", a, ta); err != nil {
		return err
	}
	// The killed members start again, and with a majority back the
	// sessions can end: a case after this one finds the cluster whole and
	// no key of this one left to be deleted at a moment of the leader's
	// choosing.
	if err := r.cl.Restart(leader, other); err != nil {
		return err
	}
	c.fault(step{kind: stepRestart, members: 2}, "%s and %s restarted from their data", r.cl.Name(leader), r.cl.Name(other))
	return endSessions(a, b)
}

// lateWriteBeforeSuccessor plays the pause of pause-past-ttl with one
// change of order: A resumes and writes once B holds the lock, but before
// B's first write. Then it plays the same again under a lock and a key of
// its own, with B claiming the destination's mark before it works: the
// remedy.
func lateWriteBeforeSuccessor(r *run, c *CaseResult) error {
	a, b, stop, err := pair(r, r.cl.Endpoints())
	if err != nil {
		return err
	}
	defer stop()
	if err := lateWrite(r, c, a, b, false); err != nil {
		return err
	}
	c.Remedy = newCase(successorClaimsMark, c.TTLSeconds)
	return lateWrite(r, c.Remedy, a, b, true)
}

// lateWrite plays one run of late-write-before-successor with workers a
// and b on case c's lock and key; with claimFirst, B claims the
// destination's mark as soon as it holds the lock. Both sessions end with
// the run.
func lateWrite(r *run, c *CaseResult, a, b *worker.Process, claimFirst bool) error {
	resumeAndWrite, err := r.pausedBeforeWrite(c, a)
	if err != nil {
		return err
	}
	tb, err := acquire(c, "B", b)
	if err == nil && claimFirst {
		err = r.claimMark(c, "B", b, tb)
	}
	if err != nil {
		_ = Resume(a.Pid)
		return err
	}
	if err := resumeAndWrite(); err != nil {
		return err
	}
	if err := r.write(c, "B", b, tb); err != nil {
		return err
	}
	return endSessions(a, b)
}
