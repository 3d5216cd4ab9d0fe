package lockservicelab

// This file holds a case step by step, for the picture: every grant,
// refusal, check, fault and write, in the order the runner's handshakes
// put them. The order is all the picture needs as its time: the run's
// wall-clock instants differ from run to run, and the order does not.

// stepKind says what happened at one step.
type stepKind int

const (
	stepGrant       stepKind = iota // the cluster granted worker the lock, with token
	stepLockRefused                 // the cluster refused worker the lock, for reason
	stepCheck                       // worker checked its session and found it still its own
	stepPause                       // the runner stopped worker (SIGSTOP)
	stepResume                      // the runner resumed worker (SIGCONT)
	stepCut                         // the runner cut worker's traffic to every member
	stepRestore                     // the runner restored it
	stepKill                        // the runner killed members, the leader among them
	stepElected                     // the members left elected a leader
	stepRestart                     // the runner restarted the killed members
	stepWrite                       // worker's write reached the destination
)

// step is one thing that happened in a case.
type step struct {
	kind    stepKind
	worker  string
	token   int64  // stepGrant, stepWrite
	reason  string // stepLockRefused
	members int    // stepKill, stepRestart: how many members were killed, or restarted
	write   Write  // stepWrite: the write and the destination's answer
	stale   bool   // stepWrite: accepted although a greater token was granted
	holder  int64  // stepWrite: the greatest token granted by then
}

// step records s as the case's next step.
func (c *CaseResult) step(s step) { c.steps = append(c.steps, s) }
