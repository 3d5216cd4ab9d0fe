package historylab

// This file holds the history worker: a separate OS process with its own
// connection, which makes its calls one after another as fast as the
// database lets it, records each one's start, end and answer, and tells
// its parent after each how many it has made, so that the parent can
// kill it in the middle of the next. At the calls its plan says, it asks
// its parent to stop it between reading its clock and calling: the
// call is then made with the time it read before the pause, as a
// process that lost the processor at that moment would make it.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/historylab/calls"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// workerRole is started with one argument: its workerArgs as JSON.
var workerRole = worker.Role{Name: "history-worker", Run: runWorker}

// workerArgs is what the runner hands a worker through the handshake.
type workerArgs struct {
	DB        string   `json:"db"`
	Records   string   `json:"records"` // this process's own record file
	Mechanism string   `json:"mechanism"`
	Process   int      `json:"process"` // its number in the history; a replacement gets a new one
	Actor     string   `json:"actor"`   // the owner, worker or writer name its calls carry
	Seed      int64    `json:"seed"`
	From      int      `json:"from"` // the slot's calls this process makes: [From, To)
	To        int      `json:"to"`
	Keys      []string `json:"keys"`
	// Pauses are the calls this process asks to be stopped during (by
	// the slot's calls made before it), and for how long.
	Pauses []pause `json:"pauses,omitempty"`
}

func (a workerArgs) encode() []string {
	b, _ := json.Marshal(a) // plain strings and numbers: never fails
	return []string{string(b)}
}

// progress is what a worker tells its parent after each call, or, with
// PauseMs, during one: stop me for that long, and answer once I run
// again.
type progress struct {
	Done    int   `json:"done"` // the slot's calls made so far
	Last    bool  `json:"last,omitempty"`
	PauseMs int64 `json:"pause_ms,omitempty"`
}

func runWorker(ctx context.Context, args []string, link *worker.Link) error {
	if len(args) != 1 {
		return fmt.Errorf("want one argument, the worker's plan, got %d", len(args))
	}
	var a workerArgs
	if err := json.Unmarshal([]byte(args[0]), &a); err != nil {
		return fmt.Errorf("read the worker's plan: %w", err)
	}
	m, err := calls.Named(a.Mechanism)
	if err != nil {
		return err
	}
	// The link's end (the runner gone) stops the calls, whatever they do.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-link.PeerClosed():
			cancel()
		case <-ctx.Done():
		}
	}()
	db, err := sqlitedb.Open(ctx, a.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	f, err := os.OpenFile(a.Records, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	rec := history.NewRecorder(f, a.Process)
	// The worker sets the mechanism's clock before each call, from the
	// wall clock, and records the value as the call's input: the lease
	// decisions are judged by the time each call read.
	clk := &clock.Logical{}
	c := m.Open(db, clk)
	r := rand.New(rand.NewPCG(uint64(a.Seed), uint64(a.Process)))
	v := calls.NewView(a.Keys)
	pauses := a.Pauses
	for done := a.From; done < a.To; {
		op := c.Next(r, v)
		op.Actor, op.Now = a.Actor, time.Now().UnixMilli()
		clk.Set(op.Now)
		answered, err := rec.Call(op)
		if err != nil {
			return err
		}
		if len(pauses) > 0 && pauses[0].After == done {
			if err := askToPause(link, done, pauses[0].Ms); err != nil {
				return err
			}
			pauses = pauses[1:]
		}
		out, callErr := c.Call(ctx, op)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if callErr != nil {
			// The call failed without an answer: it may have taken effect
			// or not, and the history says so. The worker goes on, as the
			// torture workers do: the check judges what the calls did.
			out = history.Out{Result: history.Unknown}
		}
		if err := answered(out); err != nil {
			return err
		}
		v.Learn(op, out)
		done++
		if err := link.Send(progress{Done: done, Last: done == a.To}); err != nil {
			return err
		}
	}
	return nil
}

// askToPause asks the parent to stop this process for ms milliseconds,
// and returns once it has been let go.
func askToPause(link *worker.Link, done int, ms int64) error {
	if err := link.Send(progress{Done: done, PauseMs: ms}); err != nil {
		return err
	}
	var resumed progress
	return link.Recv(&resumed)
}
