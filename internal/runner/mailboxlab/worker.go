package mailboxlab

// This file holds the mailbox worker: a separate OS process with its own
// connection to the ledger, which performs one request at a time when the
// coordinator says so. The ordering of the experiment lives in the
// coordinator; the worker only does what it is told, when it is told.

import (
	"context"
	"fmt"
	"os"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// workerRole is started with two arguments: the ledger path and the
// worker's name.
var workerRole = worker.Role{Name: "mailbox-worker", Run: runWorker}

// request is what the coordinator asks a worker to do.
type request struct {
	Op    string `json:"op"` // read, naive-write, naive-claim, claim, complete
	ID    string `json:"id"`
	Token int64  `json:"token,omitempty"`
}

// reply is the worker's answer to one request.
type reply struct {
	Pid      int    `json:"pid"`
	State    string `json:"state,omitempty"`    // read: the state the worker saw
	Believes bool   `json:"believes,omitempty"` // the worker now believes it owns the message
	Token    int64  `json:"token,omitempty"`
	cli.Outcome
}

func runWorker(ctx context.Context, args []string, link *worker.Link) error {
	if len(args) != 2 {
		return fmt.Errorf("want arguments LEDGER WORKER, got %q", args)
	}
	db, err := sqlitedb.Open(ctx, args[0])
	if err != nil {
		return err
	}
	defer db.Close()
	w := &claimant{db: db, name: args[1], box: mailbox.Open(db, noClock, mailbox.NoLease)}
	return worker.Serve(link, func(req request) (reply, error) {
		rep, err := w.do(ctx, req)
		if err != nil {
			return rep, fmt.Errorf("%s %s: %w", req.Op, req.ID, err)
		}
		rep.Pid = os.Getpid()
		return rep, nil
	})
}

// claimant is one worker process's side of the mailbox: its name and its
// own connection to the ledger.
type claimant struct {
	db   *sqlitedb.DB
	name string
	box  *mailbox.Mailbox
}

func (w *claimant) do(ctx context.Context, req request) (reply, error) {
	switch req.Op {
	case "read":
		state, err := naiveRead(ctx, w.db, req.ID)
		return reply{State: state}, err
	case "naive-write":
		err := naiveWrite(ctx, w.db, req.ID, w.name)
		return reply{Believes: err == nil}, err
	case "naive-claim":
		// Read, decide, write, with nothing in between but this process's
		// own speed: the race mode's wrong claim.
		state, err := naiveRead(ctx, w.db, req.ID)
		if err != nil || state != string(mailbox.New) {
			return reply{State: state}, err
		}
		err = naiveWrite(ctx, w.db, req.ID, w.name)
		return reply{State: state, Believes: err == nil}, err
	case "claim":
		c, err := w.box.Claim(ctx, req.ID, w.name)
		out, err := outcomeOf("claimed", err)
		return reply{Token: c.Token, Believes: out.Result == "claimed", Outcome: out}, err
	case "complete":
		out, err := outcomeOf("completed", w.box.Complete(ctx, req.ID, w.name, req.Token))
		return reply{Outcome: out}, err
	}
	return reply{}, fmt.Errorf("unknown request %q", req.Op)
}
