package torturelab

// This file holds the coordinator: it fills the ledger, starts the
// workers, kills and restarts them as the plan says, notices when every
// message is DONE or DEAD (or that nothing moves any more), stops the
// workers, and hands the ledger and the records to the audit. It never
// tells a worker what to claim or when: the workers contend on their own.

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// The run's files, inside the runner's temporary directory.
const (
	ledgerFile = "ledger.db"
	recordsDir = "records" // one file per worker process (record.go)
)

// tick is how often the coordinator looks at the token counter, to arm
// the next kill, and counts the messages still open.
const tick = 5 * time.Millisecond

// stallLimit is how long the coordinator waits for one more message to
// end DONE or DEAD before it gives up and audits what it has: ten seconds
// and 24 leases, far more than the plan's longest pause (four leases) on
// a busy machine, so that only a mechanism that stopped making progress
// reaches it.
func stallLimit(leaseMs int64) time.Duration {
	return 10*time.Second + time.Duration(24*leaseMs)*time.Millisecond
}

// run performs the torture run planned by p on a ledger of messages
// messages, and audits it. A violation is returned as a *cli.Finding,
// beside the result.
func run(ctx context.Context, env cli.Env, p runPlan, messages int) (*result, error) {
	return newCoordinator(p, env.Dir, worker.Start).run(ctx, messages)
}

// newCoordinator returns the coordinator of the run planned by p in the
// folder dir, whose workers start will start.
func newCoordinator(p runPlan, dir string, start worker.Starter) *coordinator {
	return &coordinator{
		plan:    p,
		ledger:  filepath.Join(dir, ledgerFile),
		records: filepath.Join(dir, recordsDir),
		startAs: start,
		stall:   stallLimit(p.LeaseMs),
		killed:  map[*worker.Process]bool{},
		exits:   make(chan exited, p.processes+len(p.Kills)),
	}
}

// run is the whole run, from the empty folder to the audit.
func (c *coordinator) run(ctx context.Context, messages int) (*result, error) {
	p := c.plan
	began := time.Now()
	beganMs := clock.Wall{}.Now() // the picture's zero, on the records' clock
	if err := os.Mkdir(c.records, 0o755); err != nil {
		return nil, err
	}
	db, err := sqlitedb.Open(ctx, c.ledger)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	c.db = db
	ids, err := fill(ctx, db, messages)
	if err != nil {
		return nil, err
	}
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	defer c.crew.Stop()
	ended, err := c.drive(ctx)
	if err != nil {
		return nil, err
	}
	// Every worker finishes the message in its hands (a paused one wakes
	// up) and exits.
	if err := c.crew.Wait(); err != nil {
		return nil, fmt.Errorf("stopping the workers: %w", err)
	}
	logs, err := readLogs(c.records)
	if err != nil {
		return nil, err
	}
	l, err := readLedger(ctx, db, ids, p.LeaseMs)
	if err != nil {
		return nil, err
	}
	f := audit.Audit(l, logs)
	res := summarize(p, messages, logs, l, f)
	res.Killed, res.Ended = c.kills, ended
	res.story = story{beganMs: beganMs, endedMs: clock.Wall{}.Now(), logs: logs, kills: c.killedAt, findings: f}
	res.Seconds = float64(time.Since(began).Milliseconds()) / 1000
	if !f.Clean() {
		return res, cli.Findingf("%s", f.Summary())
	}
	return res, nil
}

// fill creates the ledger's schema and adds messages NEW messages.
func fill(ctx context.Context, db *sqlitedb.DB, messages int) ([]string, error) {
	if err := mailbox.CreateSchema(ctx, db); err != nil {
		return nil, err
	}
	box := mailbox.Open(db, clock.Wall{}, mailbox.NoLease)
	ids := make([]string, messages)
	for i := range ids {
		ids[i] = messageID(i + 1)
		if err := box.Add(ctx, ids[i], "body of "+ids[i]); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// coordinator is the parent's side of one run.
type coordinator struct {
	plan            runPlan
	ledger, records string
	startAs         worker.Starter // how its workers start: processes, but a test's may not be
	stall           time.Duration  // how long drive waits for a message to end (stallLimit)
	db              *sqlitedb.DB
	crew            *worker.Crew
	owners          []string                 // the owner name of each slot's current process
	killed          map[*worker.Process]bool // processes killed on purpose
	exits           chan exited
	kills           int        // kills done
	killedAt        []killMark // when each was done, for the picture
}

// exited says that the process in slot, named owner, has ended.
type exited struct {
	p     *worker.Process
	owner string
}

// args returns the handshake arguments of the start-th process of slot.
func (c *coordinator) args(slot, start int, owner string) []string {
	return workerArgs{
		Ledger: c.ledger, Records: filepath.Join(c.records, recordFile(slot, start)),
		Owner: owner, Slot: slot, Start: start, Seed: c.plan.Seed, LeaseMs: c.plan.LeaseMs,
	}.encode()
}

// start starts the first process of every slot.
func (c *coordinator) start(ctx context.Context) error {
	args := make([][]string, c.plan.processes)
	for slot := range args {
		c.owners = append(c.owners, c.plan.Owners[slot])
		args[slot] = c.args(slot, 1, c.owners[slot])
	}
	crew, err := worker.StartCrew(ctx, c.startAs, workerRole, args)
	if err != nil {
		return err
	}
	c.crew = crew
	for slot := range args {
		c.watch(slot)
	}
	return nil
}

// watch reports, on c.exits, when the process now in slot ends.
func (c *coordinator) watch(slot int) {
	p, owner := c.crew.Member(slot), c.owners[slot]
	go func() {
		<-p.Done()
		c.exits <- exited{p: p, owner: owner}
	}()
}

// drive runs the plan's kills until every message is DONE or DEAD, or
// until none has ended for stallLimit, and says which.
func (c *coordinator) drive(ctx context.Context) (string, error) {
	t := time.NewTicker(tick)
	defer t.Stop()
	next := 0           // the next kill of the plan
	var armed time.Time // when that kill comes; zero until it is armed
	// The fewest messages open so far, and when that was counted.
	best, lastGain := math.MaxInt, time.Now()
	limit := c.stall
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case e := <-c.exits:
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			if !c.killed[e.p] {
				x := e.p.Exit()
				return "", fmt.Errorf("%s (pid %d) ended by itself during the run (exit status %d)", e.owner, e.p.Pid, x.Code)
			}
			continue
		case <-t.C:
		}
		for next < len(c.plan.Kills) {
			k := c.plan.Kills[next]
			if armed.IsZero() {
				minted, err := tokensMinted(ctx, c.db)
				if err != nil {
					return "", err
				}
				if minted < int64(k.AfterClaims) {
					break
				}
				armed = time.Now().Add(time.Duration(k.DelayMs) * time.Millisecond)
			}
			if time.Now().Before(armed) {
				break
			}
			if err := c.kill(k); err != nil {
				return "", err
			}
			next, armed = next+1, time.Time{}
		}
		open, err := countOpen(ctx, c.db)
		if err != nil {
			return "", err
		}
		switch {
		case open == 0:
			return "every message DONE or DEAD", nil
		case open < best:
			best, lastGain = open, time.Now()
		case time.Since(lastGain) > limit:
			return fmt.Sprintf("stalled: %d messages still open, and none ended for %v", open, limit), nil
		}
	}
}

// kill kills the process the plan names with kill -9 and starts its
// replacement under the name the plan gives it: Replace kills the process
// in that place first.
func (c *coordinator) kill(k plannedKill) error {
	c.killed[c.crew.Member(k.slot)] = true
	c.kills++
	c.killedAt = append(c.killedAt, killMark{atMs: clock.Wall{}.Now(), slot: k.slot, worker: k.Worker, restartAs: k.RestartAs})
	c.owners[k.slot] = k.RestartAs
	if _, err := c.crew.Replace(k.slot, c.args(k.slot, k.start, k.RestartAs)...); err != nil {
		return err
	}
	c.watch(k.slot)
	return nil
}

// tokensMinted reads how far the shared token counter has counted: the
// highest token handed out, which is how many claims have begun a new
// generation so far. A committed read, like the workers' polls; it
// decides nothing but when the next kill is armed.
func tokensMinted(ctx context.Context, db *sqlitedb.DB) (int64, error) {
	var n int64
	err := db.QueryRow(ctx, `SELECT COALESCE(MAX(token), 0) FROM lease_tokens`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("read the token counter: %w", err)
	}
	return n, nil
}

// countOpen counts the messages neither DONE nor DEAD.
func countOpen(ctx context.Context, db *sqlitedb.DB) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM messages WHERE state NOT IN ('DONE', 'DEAD')`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count open messages: %w", err)
	}
	return n, nil
}
