// Package calls is what a history worker does to each of the four
// mechanisms (chapter 9's linearizability experiment): how the run sets
// one up, which call a worker makes next from what it has seen, and how
// that call is made and its answer written in the history's words. The
// worker processes and the run itself are package historylab's.
package calls

// This file holds what differs between the four mechanisms: how the run
// sets one up, which call a worker makes next, and how that call is made
// and its answer written down in the history's words.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// LeaseMs is the lease of the mailbox's and the queue's claims, in
// wall-clock milliseconds: a few calls long, so that leases end, and are
// taken over, many times in a run.
const LeaseMs = 10

// HotKeys is how many keys the workers call on at once: few, so that
// their calls meet on the same rows.
const HotKeys = 3

// Mechanism is one of the four, as the history experiment drives it.
type Mechanism interface {
	// Spec is the sequential specification the history is checked against.
	Spec() history.Spec
	// Setup creates the schema and the run's keys, in the runner.
	Setup(ctx context.Context, db *sqlitedb.DB, keys []string) error
	// Open opens the mechanism in a worker, on its own connection, with
	// the clock each call sets before it is made.
	Open(db *sqlitedb.DB, clk clock.Clock) Caller
}

// Caller makes calls on one opened mechanism.
type Caller interface {
	// Next chooses the next call, from what this worker has seen.
	Next(r *rand.Rand, v *View) history.Op
	// Call makes op and returns its answer; an error is a call that
	// failed without an answer.
	Call(ctx context.Context, op history.Op) (history.Out, error)
}

// mechanisms are the four, by their --mechanism name, in the usage's order.
var mechanisms = []struct {
	name string
	m    Mechanism
}{
	{"mailbox", mailboxMechanism{}},
	{"queue", queueMechanism{}},
	{"gate", gateMechanism{}},
	{"store", storeMechanism{}},
}

// Names are the mechanisms' names, in the usage's order.
func Names() []string {
	var names []string
	for _, m := range mechanisms {
		names = append(names, m.name)
	}
	return names
}

// Named returns the mechanism called name.
func Named(name string) (Mechanism, error) {
	for _, m := range mechanisms {
		if m.name == name {
			return m.m, nil
		}
	}
	return nil, fmt.Errorf("history: no mechanism %q", name)
}

// refusalOut is the answer of a refused call, or false if err is none.
func refusalOut(err error) (history.Out, bool) {
	var mr *mailbox.Refusal
	var qr *queue.Refusal
	var sr *fencedstore.Refusal
	switch {
	case errors.As(err, &mr):
		return history.Out{Result: history.Refused, Reason: string(mr.Reason), Holder: mr.Holder}, true
	case errors.As(err, &qr):
		return history.Out{Result: history.Refused, Reason: string(qr.Reason), Holder: qr.Holder}, true
	case errors.As(err, &sr):
		return history.Out{Result: history.Refused, Reason: string(sr.Reason), Mark: sr.Mark}, true
	}
	return history.Out{}, false
}

// answer turns a call's error into its answer: accepted, refused, or an
// error (no answer).
func answer(out history.Out, err error) (history.Out, error) {
	if err == nil {
		out.Result = history.OK
		return out, nil
	}
	if r, ok := refusalOut(err); ok {
		return r, nil
	}
	return history.Out{}, err
}
