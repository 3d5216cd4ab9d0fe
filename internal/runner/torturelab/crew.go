package torturelab

// This file holds what both coordinators do with their workers, written
// once: start one process per slot, watch every slot for the end of its
// process (and, in an etcd run, for its requests to be paused), kill a
// process with kill -9 when the plan says and start its replacement, and
// drive the run until every message has ended or none ends any more. The
// parts that differ by lock come in from the coordinator (run.go for the
// mailbox, etcd.go for etcd): the handshake arguments of a process, how
// to read the store's progress, and what else to do after each reading.

import (
	"context"
	"fmt"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// crewDriver is the part of a coordinator that starts, watches, kills
// and replaces its workers, and drives the run.
type crewDriver struct {
	planned []plannedKill  // the plan's kills of workers, in order
	owners  []string       // the owner name of each slot's current process
	startAs worker.Starter // how its workers start: processes, but a test's may not be
	role    worker.Role
	// argsOf returns the handshake arguments of the start-th process of
	// slot, named owner.
	argsOf func(slot, start int, owner string) []string
	// pause, if not nil, answers a worker's request to be paused (an etcd
	// run's workers send them; a mailbox run's send none).
	pause func(p *worker.Process, req PauseRequest)
	stall time.Duration // how long drive waits for a message to end (stallLimit)

	crew     *worker.Crew
	killed   map[*worker.Process]bool // processes killed on purpose
	exits    chan exited
	kills    int        // kills done
	killedAt []killMark // when each was done, for the picture
}

// newCrewDriver returns the driver of a crew of len(first) slots whose
// first processes are named first, killed as kills says.
func newCrewDriver(first []string, kills []plannedKill, start worker.Starter, role worker.Role, stall time.Duration) crewDriver {
	return crewDriver{
		planned: kills, owners: append([]string(nil), first...), startAs: start, role: role, stall: stall,
		killed: map[*worker.Process]bool{}, exits: make(chan exited, len(first)+len(kills)),
	}
}

// exited says that the process p, named owner, has ended.
type exited struct {
	p     *worker.Process
	owner string
}

// start starts the first process of every slot, and watches each.
func (d *crewDriver) start(ctx context.Context) error {
	args := make([][]string, len(d.owners))
	for slot := range args {
		args[slot] = d.argsOf(slot, 1, d.owners[slot])
	}
	crew, err := worker.StartCrew(ctx, d.startAs, d.role, args)
	if err != nil {
		return err
	}
	d.crew = crew
	for slot := range args {
		d.watch(slot)
	}
	return nil
}

// watch reports on d.exits when the process now in slot ends; until
// then, with a pause answerer, it answers the process's requests.
func (d *crewDriver) watch(slot int) {
	p, owner := d.crew.Member(slot), d.owners[slot]
	go func() {
		defer func() { d.exits <- exited{p: p, owner: owner} }()
		if d.pause == nil {
			<-p.Done()
			return
		}
		for {
			var req PauseRequest
			if err := p.Recv(&req); err != nil {
				select {
				case <-p.Done():
					return
				default:
					continue // a quiet worker: Recv gave up waiting
				}
			}
			d.pause(p, req)
		}
	}()
}

// kill kills the process k names with kill -9 and starts its replacement
// under the name k gives it, in the same slot.
func (d *crewDriver) kill(k plannedKill) error {
	d.killed[d.crew.Member(k.slot)] = true
	d.crew.Kill(k.slot)
	d.kills++
	d.killedAt = append(d.killedAt, killMark{atMs: clock.Wall{}.Now(), slot: k.slot, worker: k.Worker, restartAs: k.RestartAs})
	d.owners[k.slot] = k.RestartAs
	if _, err := d.crew.Replace(k.slot, d.argsOf(k.slot, k.start, k.RestartAs)...); err != nil {
		return err
	}
	d.watch(k.slot)
	return nil
}

// progress is one reading of a run's store: the count that arms the
// plan's kills (tokens minted in a mailbox run, writes accepted in an
// etcd run), and how many messages have not ended yet.
type progress struct {
	count, open int
}

// driveRules are the parts of drive that differ by lock.
type driveRules struct {
	every int // ticks from one reading of the store to the next
	read  func(context.Context) (progress, error)
	// after, if not nil, is done after each reading (an etcd run kills
	// its members there).
	after func(progress) error
	// ended is what drive says when every message has ended; stalled
	// what it says when none ended for the stall limit, given how many
	// are open and the limit.
	ended   string
	stalled func(open int, limit time.Duration) string
}

// drive runs the plan's kills until every message has ended, or until
// none has for the stall limit, and says which. A kill is armed once a
// reading's count reaches its AfterClaims, and comes its DelayMs later;
// kills armed together come in the plan's order. A process that ends
// without being killed fails the run.
func (d *crewDriver) drive(ctx context.Context, r driveRules) (string, error) {
	t := time.NewTicker(tick)
	defer t.Stop()
	next := 0           // the next kill of the plan
	var armed time.Time // when that kill comes; zero until it is armed
	// The fewest messages open so far, and when that was counted.
	best, lastGain := -1, time.Now()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case e := <-d.exits:
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			if !d.killed[e.p] {
				return "", fmt.Errorf("%s (pid %d) ended by itself during the run (exit status %d)", e.owner, e.p.Pid, e.p.Exit().Code)
			}
			continue
		case <-t.C:
		}
		if n%r.every != 0 {
			continue
		}
		now, err := r.read(ctx)
		if err != nil {
			return "", err
		}
		for next < len(d.planned) && now.count >= d.planned[next].AfterClaims {
			if armed.IsZero() {
				armed = time.Now().Add(time.Duration(d.planned[next].DelayMs) * time.Millisecond)
			}
			if time.Now().Before(armed) {
				break
			}
			if err := d.kill(d.planned[next]); err != nil {
				return "", err
			}
			next, armed = next+1, time.Time{}
		}
		if r.after != nil {
			if err := r.after(now); err != nil {
				return "", err
			}
		}
		switch {
		case now.open == 0:
			return r.ended, nil
		case best < 0 || now.open < best:
			best, lastGain = now.open, time.Now()
		case time.Since(lastGain) > d.stall:
			return r.stalled(now.open, d.stall), nil
		}
	}
}
