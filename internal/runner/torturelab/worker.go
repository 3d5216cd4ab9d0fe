package torturelab

// This file holds the torture worker: a separate OS process with its own
// connection to the ledger, which works on its own until its parent is
// done with it. It looks for a message a claim may take, claims it, reads
// it, maybe pauses (past its lease, sometimes), maybe claims it again,
// and then completes it or, when the plan says this attempt fails,
// dead-letters it. Every answer goes to its record file the moment it
// arrives. Its parent tells it nothing after the handshake: the only
// ordering here is the one SQLite's write lock imposes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// workerRole is started with one argument: its workerArgs as JSON.
var workerRole = worker.Role{Name: "torture-worker", Run: runWorker}

// workerArgs is what the coordinator hands a worker through the
// handshake: paths inside the run's own temporary directory, and the
// plan's numbers.
type workerArgs struct {
	Ledger  string `json:"ledger"`
	Records string `json:"records"` // the worker's own record file, not yet created
	// History is the worker's own file of mailbox calls, not yet created,
	// in the words of package history (calls.go).
	History string `json:"history"`
	Owner   string `json:"owner"`
	Slot    int    `json:"slot"`
	Start   int    `json:"start"`
	Seed    int64  `json:"seed"`
	LeaseMs int64  `json:"lease_ms"`
}

func (a workerArgs) encode() []string {
	b, _ := json.Marshal(a) // plain strings and numbers: never fails
	return []string{string(b)}
}

func runWorker(ctx context.Context, args []string, link *worker.Link) error {
	if len(args) != 1 {
		return fmt.Errorf("want one argument, the worker's plan, got %d", len(args))
	}
	var a workerArgs
	if err := json.Unmarshal([]byte(args[0]), &a); err != nil {
		return fmt.Errorf("read the worker's plan: %w", err)
	}
	db, err := sqlitedb.Open(ctx, a.Ledger)
	if err != nil {
		return err
	}
	defer db.Close()
	rec, err := createRecorder(a.Records, audit.Log{Owner: a.Owner, Pid: os.Getpid(), Slot: a.Slot, Start: a.Start})
	if err != nil {
		return err
	}
	defer rec.close()
	hist, err := os.OpenFile(a.History, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer hist.Close()
	at := &clock.Logical{} // the mailbox's clock: set from the wall clock before each claim
	w := &tortureWorker{
		db:      db,
		clk:     clock.Wall{},
		at:      at,
		box:     mailbox.Open(db, at, a.LeaseMs),
		hist:    history.NewRecorder(hist, historyProcess(a.Slot, a.Start)),
		owner:   a.Owner,
		seed:    a.Seed,
		leaseMs: a.LeaseMs,
		steps:   &steps{r: workerRand(a.Seed, a.Slot, a.Start, streamPause)},
		pick:    workerRand(a.Seed, a.Slot, a.Start, streamPick),
		rec:     rec,
		stop:    link.PeerClosed(),
		from:    firstRow,
	}
	w.pause = w.wait
	return w.run(ctx)
}

// tortureWorker is one worker process's state.
type tortureWorker struct {
	db *sqlitedb.DB
	// clk is the clock of its polls and records: the wall clock, as the
	// mailbox's leases are measured on (a test may give it another).
	clk clock.Clock
	// at is box's clock, set to clk's time just before each claim: the
	// claim's lease is judged by the time its history records.
	at    *clock.Logical
	box   *mailbox.Mailbox
	hist  *history.Recorder // every call on box, in package history's words
	owner string
	seed  int64
	// leaseMs is the lease of every claim, as the flag --lease-ms set it:
	// the mailbox measures it, and the worker's pauses and idle waits
	// are counted in it.
	leaseMs int64
	steps   *steps
	pick    *rand.Rand
	rec     *recorder
	stop    <-chan struct{} // closed when the parent is done with this worker
	// pause waits out a planned pause: w.wait, unless a test that is
	// about what happens meanwhile gives another.
	pause func(ctx context.Context, d time.Duration)
	from  int64 // where the next poll starts (poll.go)
	polls int
}

// run works until the parent is done with the worker. Only a record that
// cannot be written, or an interrupt, ends it early: a call that fails is
// recorded and the worker goes on, as a real one would.
func (w *tortureWorker) run(ctx context.Context) error {
	for {
		select {
		case <-w.stop:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		found, err := w.poll(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err := w.note(audit.Record{Op: "poll", Result: audit.Failed, Error: err.Error()}); err != nil {
				return err
			}
		}
		if len(found) == 0 {
			w.wait(ctx, w.idleTime())
			continue
		}
		if err := w.work(ctx, found[w.pick.IntN(len(found))]); err != nil {
			return err
		}
	}
}

// idleTime is how long a worker that found nothing to claim waits before
// it looks again: a quarter of a lease, within 1 to 20 milliseconds.
func (w *tortureWorker) idleTime() time.Duration {
	return time.Duration(min(max(w.leaseMs/4, 1), 20)) * time.Millisecond
}

// wait waits for d, or less if the parent is done or the run interrupted.
func (w *tortureWorker) wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-w.stop:
	case <-ctx.Done():
	}
}

// work claims c and, if the claim is won, follows the plan's step for it
// to the end: read, pause, claim again, then complete or dead-letter.
// It returns an error only when a record cannot be written.
func (w *tortureWorker) work(ctx context.Context, c candidate) error {
	got, won, err := w.claim(ctx, c.id, c.state == mailbox.Claimed)
	if err != nil || !won {
		return err
	}
	st := w.steps.next(w.leaseMs)
	msg, callErr, err := w.readCall(ctx, c.id)
	if err != nil || callErr != nil {
		return w.readFailed(c.id, callErr, err)
	}
	if st.PauseMs > 0 {
		if err := w.note(audit.Record{Op: "pause", ID: c.id, Token: got.Token, PauseMs: st.PauseMs, PastLease: st.PastLease}); err != nil {
			return err
		}
		// A parent that is done wakes a paused worker: it finishes its
		// message at once instead of sleeping out the pause.
		w.pause(ctx, time.Duration(st.PauseMs)*time.Millisecond)
	}
	if st.Renew {
		// Claiming again: inside the lease, a renewal that keeps the
		// token; past it, the worker's own takeover, with a new token, or
		// a refusal if somebody else took the message meanwhile.
		got, won, err = w.claim(ctx, c.id, true)
		if err != nil || !won {
			return err
		}
		if !got.Renewed {
			// A new generation: meanwhile another worker may have held
			// the message and retried it, so what was read before is
			// out of date. Read it again, as any new holder does.
			if msg, callErr, err = w.readCall(ctx, c.id); err != nil || callErr != nil {
				return w.readFailed(c.id, callErr, err)
			}
		}
	}
	// The attempt fails if the plan says this message fails this many
	// times: the retry count read under the worker's own generation,
	// which nobody else can change while that generation lasts.
	tok := got.Token
	if failures(w.seed, messageIndex(c.id)) > msg.RetryCount {
		verdict, callErr, err := w.deadLetterCall(ctx, c.id, tok)
		if err != nil {
			return err
		}
		out, err := cli.OutcomeOf(string(verdict), callErr, mailbox.ReasonOf)
		return w.answer(audit.Record{Op: "dead-letter", ID: c.id, Token: tok}, out, err)
	}
	callErr, err = w.completeCall(ctx, c.id, tok)
	if err != nil {
		return err
	}
	out, err := cli.OutcomeOf(audit.Completed, callErr, mailbox.ReasonOf)
	return w.answer(audit.Record{Op: "complete", ID: c.id, Token: tok}, out, err)
}

// readFailed ends the work on message id after a read: err, when the
// history could not be written; otherwise the read's failure, recorded.
func (w *tortureWorker) readFailed(id string, callErr, err error) error {
	if err != nil {
		return err
	}
	return w.note(audit.Record{Op: "read", ID: id, Result: audit.Failed, Error: callErr.Error()})
}

// claim claims message id and records the answer. It returns the claim
// and whether it was won. overExpired says the message was seen CLAIMED
// with its lease passed (or is the worker's own claim, being claimed
// again): a new generation won on it is a takeover.
func (w *tortureWorker) claim(ctx context.Context, id string, overExpired bool) (c mailbox.Claim, won bool, err error) {
	c, callErr, err := w.claimCall(ctx, id)
	if err != nil {
		return c, false, err
	}
	rec := audit.Record{Op: "claim", ID: id}
	out, err := cli.OutcomeOf(audit.Claimed, callErr, mailbox.ReasonOf)
	var refusal *mailbox.Refusal
	switch {
	case err != nil:
	case errors.As(callErr, &refusal):
		rec.Holder = refusal.Holder
	default:
		rec.Token, rec.ExpiresAt = c.Token, c.ExpiresAt
		if c.Renewed {
			out.Result = audit.Renewed
		} else {
			rec.Takeover = overExpired
		}
	}
	won = err == nil && out.Result != cli.Refused
	return c, won, w.answer(rec, out, err)
}

// answer records the outcome of one call: its result and reason, or err
// when the call failed without an answer (its outcome is then unknown,
// and the record says so).
func (w *tortureWorker) answer(rec audit.Record, out cli.Outcome, err error) error {
	if err != nil {
		rec.Result, rec.Error = audit.Failed, err.Error()
	} else {
		rec.Result, rec.Reason = out.Result, out.Reason
	}
	return w.note(rec)
}

// note stamps rec with the time and writes it to the record file.
func (w *tortureWorker) note(rec audit.Record) error {
	rec.At = w.clk.Now()
	return w.rec.write(rec)
}
