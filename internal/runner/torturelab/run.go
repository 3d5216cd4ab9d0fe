package torturelab

// This file holds the coordinator of a mailbox run: it fills the ledger,
// has its crew driver (crew.go) start the workers, kill and restart them
// as the plan says and notice when every message is DONE or DEAD (or that
// nothing moves any more), stops the workers, and hands the ledger and
// the records to the audit. It never
// tells a worker what to claim or when: the workers contend on their own.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
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
// messages, audits it, and checks its history if check asks. A violation
// is returned as a *cli.Finding, beside the result.
func run(ctx context.Context, env cli.Env, p runPlan, messages int, check historyCheck) (*result, error) {
	return newCoordinator(p, env.Dir, worker.Start).run(ctx, messages, check)
}

// newCoordinator returns the coordinator of the run planned by p in the
// folder dir, whose workers start will start.
func newCoordinator(p runPlan, dir string, start worker.Starter) *coordinator {
	c := &coordinator{
		plan:       p,
		ledger:     filepath.Join(dir, ledgerFile),
		records:    filepath.Join(dir, recordsDir),
		history:    filepath.Join(dir, historyDir),
		crewDriver: newCrewDriver(p.Owners[:p.processes], p.Kills, start, workerRole, stallLimit(p.LeaseMs)),
	}
	c.argsOf = c.args
	return c
}

// run is the whole run, from the empty folder to the audit and the
// check.
func (c *coordinator) run(ctx context.Context, messages int, check historyCheck) (*result, error) {
	p := c.plan
	began := time.Now()
	beganMs := clock.Wall{}.Now() // the picture's zero, on the records' clock
	for _, dir := range []string{c.records, c.history} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
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
	if check.on {
		if res.Check, err = checkHistory(c.history, history.Mailbox(p.LeaseMs, mailbox.MaxRetries), check.page); err != nil {
			return nil, err
		}
	}
	res.Seconds = float64(time.Since(began).Milliseconds()) / 1000
	if !f.Clean() {
		return res, cli.Findingf("%s", f.Summary())
	}
	if res.Check != nil && res.Check.Linearizable == false {
		return res, cli.Findingf("the mailbox's history of calls is not linearizable: no order of the calls, each placed between its call and its return, gives every answer the mailbox gave")
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

// coordinator is the parent's side of one run: its crewDriver starts,
// kills and replaces the workers.
type coordinator struct {
	crewDriver
	plan                     runPlan
	ledger, records, history string
	db                       *sqlitedb.DB
}

// args returns the handshake arguments of the start-th process of slot.
func (c *coordinator) args(slot, start int, owner string) []string {
	return workerArgs{
		Ledger: c.ledger, Records: filepath.Join(c.records, recordFile(slot, start)),
		History: filepath.Join(c.history, recordFile(slot, start)),
		Owner:   owner, Slot: slot, Start: start, Seed: c.plan.Seed, LeaseMs: c.plan.LeaseMs,
	}.encode()
}

// drive runs the plan's kills until every message is DONE or DEAD, or
// until none has ended for the stall limit, and says which. A kill is
// armed by the tokens minted so far.
func (c *coordinator) drive(ctx context.Context) (string, error) {
	return c.crewDriver.drive(ctx, driveRules{
		every: 1,
		read: func(ctx context.Context) (progress, error) {
			minted, err := tokensMinted(ctx, c.db)
			if err != nil {
				return progress{}, err
			}
			open, err := countOpen(ctx, c.db)
			return progress{count: int(minted), open: open}, err
		},
		ended: "every message DONE or DEAD",
		stalled: func(open int, limit time.Duration) string {
			return fmt.Sprintf("stalled: %d messages still open, and none ended for %v", open, limit)
		},
	})
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
