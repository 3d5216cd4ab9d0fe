package calls

// This file holds each mechanism's calls: which one a worker makes next
// and how its answer is written down.

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// The mailbox: claim, complete under the token got, read.

type mailboxMechanism struct{}

func (mailboxMechanism) Spec() history.Spec { return history.Mailbox(LeaseMs, mailbox.MaxRetries) }

func (mailboxMechanism) Setup(ctx context.Context, db *sqlitedb.DB, keys []string) error {
	if err := mailbox.CreateSchema(ctx, db); err != nil {
		return err
	}
	box := mailbox.Open(db, clock.Wall{}, LeaseMs) // adding reads no clock
	for _, k := range keys {
		if err := box.Add(ctx, k, "history"); err != nil {
			return err
		}
	}
	return nil
}

func (mailboxMechanism) Open(db *sqlitedb.DB, clk clock.Clock) Caller {
	return &mailboxCaller{box: mailbox.Open(db, clk, LeaseMs)}
}

type mailboxCaller struct{ box *mailbox.Mailbox }

func (c *mailboxCaller) Next(r *rand.Rand, v *View) history.Op {
	return nextClaimed(r, v, history.Complete)
}

// nextClaimed is the next call on a mechanism of claims, the mailbox's
// or the queue's: on a hot key, a claim, the end of the work (done, a
// completion or a finish) under a token near the last seen, or a read.
func nextClaimed(r *rand.Rand, v *View, done history.Kind) history.Op {
	key := v.hot(r)
	switch n := r.IntN(10); {
	case n < 4:
		return history.Op{Kind: history.Claim, Key: key}
	case n < 8:
		return history.Op{Kind: done, Key: key, Token: v.guess(r, key)}
	}
	return history.Op{Kind: history.Read, Key: key}
}

func (c *mailboxCaller) Call(ctx context.Context, op history.Op) (history.Out, error) {
	switch op.Kind {
	case history.Claim:
		cl, err := c.box.Claim(ctx, op.Key, op.Actor)
		return answer(history.Out{Token: cl.Token, Expires: cl.ExpiresAt, Renewed: cl.Renewed}, err)
	case history.Complete:
		return answer(history.Out{}, c.box.Complete(ctx, op.Key, op.Actor, op.Token))
	case history.Read:
		m, err := c.box.Get(ctx, op.Key)
		return answer(history.Out{State: string(m.State), Holder: m.Owner, Token: m.Token, Expires: m.ExpiresAt, Retries: int64(m.RetryCount)}, err)
	}
	return history.Out{}, fmt.Errorf("history: the mailbox has no call %q", op.Kind)
}

// The job queue: claim, finish under the fence got, read.

type queueMechanism struct{}

func (queueMechanism) Spec() history.Spec { return history.Queue(LeaseMs) }

func (queueMechanism) Setup(ctx context.Context, db *sqlitedb.DB, keys []string) error {
	if err := queue.CreateSchema(ctx, db); err != nil {
		return err
	}
	q := queue.Open(db, clock.Wall{}, LeaseMs) // adding reads no clock
	for i, k := range keys {
		if err := q.Add(ctx, k, fmt.Sprintf("OP-%d", i+1), 1); err != nil {
			return err
		}
	}
	return nil
}

func (queueMechanism) Open(db *sqlitedb.DB, clk clock.Clock) Caller {
	return &queueCaller{q: queue.Open(db, clk, LeaseMs)}
}

type queueCaller struct{ q *queue.Queue }

func (c *queueCaller) Next(r *rand.Rand, v *View) history.Op {
	return nextClaimed(r, v, history.Finish)
}

func (c *queueCaller) Call(ctx context.Context, op history.Op) (history.Out, error) {
	switch op.Kind {
	case history.Claim:
		l, err := c.q.Claim(ctx, op.Key, op.Actor)
		return answer(history.Out{Token: l.Fence, Expires: l.ExpiresAt}, err)
	case history.Finish:
		return answer(history.Out{}, c.q.Finish(ctx, op.Key, op.Actor, op.Token))
	case history.Read:
		j, err := c.q.Get(ctx, op.Key)
		return answer(history.Out{State: string(j.State), Holder: j.Worker, Token: j.Fence, Expires: j.ExpiresAt}, err)
	}
	return history.Out{}, fmt.Errorf("history: the queue has no call %q", op.Kind)
}

// The gate, under fence+receipt: apply an operation under a fence, read
// the committed state. Its keys are the operations' names.

type gateMechanism struct{}

func (gateMechanism) Spec() history.Spec { return history.Gate() }

func (gateMechanism) Setup(ctx context.Context, db *sqlitedb.DB, _ []string) error {
	return gate.CreateSchema(ctx, db)
}

func (gateMechanism) Open(db *sqlitedb.DB, _ clock.Clock) Caller {
	return &gateCaller{g: gate.Open(db, gate.FenceReceipt)}
}

type gateCaller struct{ g *gate.Gate }

// gateOperations is how many operation names the workers apply: few, so
// that receipts are replayed and conflict.
const gateOperations = 8

func (c *gateCaller) Next(r *rand.Rand, v *View) history.Op {
	if r.IntN(4) == 0 {
		return history.Op{Kind: history.Read, Key: "gate"}
	}
	return history.Op{Kind: history.Apply, Key: fmt.Sprintf("OP-%d", 1+r.IntN(gateOperations)),
		Token: v.guess(r, "gate"), Units: int64(1 + r.IntN(2))}
}

func (c *gateCaller) Call(ctx context.Context, op history.Op) (history.Out, error) {
	switch op.Kind {
	case history.Apply:
		o, err := c.g.Apply(ctx, gate.Request{Fence: op.Token, Operation: op.Key, Units: op.Units})
		if err != nil {
			return history.Out{}, err
		}
		return history.Out{Result: string(o.Result)}, nil
	case history.Read:
		s, err := c.g.State(ctx)
		return answer(history.Out{Mark: s.HighestFence, Count: s.Units, Receipts: s.Receipts}, err)
	}
	return history.Out{}, fmt.Errorf("history: the gate has no call %q", op.Kind)
}

// The fenced store: write and complete under a token, read.

type storeMechanism struct{}

func (storeMechanism) Spec() history.Spec { return history.Store() }

func (storeMechanism) Setup(ctx context.Context, db *sqlitedb.DB, keys []string) error {
	if err := fencedstore.CreateSchema(ctx, db); err != nil {
		return err
	}
	s := fencedstore.Open(db, fencedstore.Fence)
	for _, k := range keys[:HotKeys] {
		if err := s.Add(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

func (storeMechanism) Open(db *sqlitedb.DB, _ clock.Clock) Caller {
	return &storeCaller{s: fencedstore.Open(db, fencedstore.Fence)}
}

type storeCaller struct{ s *fencedstore.Store }

func (c *storeCaller) Next(r *rand.Rand, v *View) history.Op {
	key := v.keys[r.IntN(HotKeys)]
	switch n := r.IntN(20); {
	case n < 12:
		return history.Op{Kind: history.Write, Key: key, Token: v.guess(r, key)}
	case n < 13:
		return history.Op{Kind: history.Complete, Key: key, Token: v.guess(r, key)}
	}
	return history.Op{Kind: history.Read, Key: key}
}

func (c *storeCaller) Call(ctx context.Context, op history.Op) (history.Out, error) {
	switch op.Kind {
	case history.Write:
		return answer(history.Out{}, c.s.Write(ctx, op.Key, op.Token, op.Actor))
	case history.Complete:
		return answer(history.Out{}, c.s.Complete(ctx, op.Key, op.Token, op.Actor))
	case history.Read:
		res, err := c.s.Get(ctx, op.Key)
		return answer(history.Out{Mark: res.Mark, Count: res.Writes, Done: res.DoneToken != 0}, err)
	}
	return history.Out{}, fmt.Errorf("history: the store has no call %q", op.Kind)
}
