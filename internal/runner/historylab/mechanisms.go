package historylab

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

// leaseMs is the lease of the mailbox's and the queue's claims, in
// wall-clock milliseconds: a few calls long, so that leases end, and are
// taken over, many times in a run.
const leaseMs = 10

// hotKeys is how many keys the workers call on at once: few, so that
// their calls meet on the same rows.
const hotKeys = 3

// mechanism is one of the four, as the history experiment drives it.
type mechanism interface {
	// spec is the sequential specification the history is checked against.
	spec() history.Spec
	// setup creates the schema and the run's keys, in the runner.
	setup(ctx context.Context, db *sqlitedb.DB, keys []string) error
	// open opens the mechanism in a worker, on its own connection, with
	// the clock each call sets before it is made.
	open(db *sqlitedb.DB, clk clock.Clock) caller
}

// caller makes calls on one opened mechanism.
type caller interface {
	// next chooses the next call, from what this worker has seen.
	next(r *rand.Rand, v *view) history.Op
	// call makes op and returns its answer; an error is a call that
	// failed without an answer.
	call(ctx context.Context, op history.Op) (history.Out, error)
}

// mechanisms are the four, by their --mechanism name, in the usage's order.
var mechanisms = []struct {
	name string
	m    mechanism
}{
	{"mailbox", mailboxMechanism{}},
	{"queue", queueMechanism{}},
	{"gate", gateMechanism{}},
	{"store", storeMechanism{}},
}

func mechanismNames() []string {
	var names []string
	for _, m := range mechanisms {
		names = append(names, m.name)
	}
	return names
}

func mechanismNamed(name string) (mechanism, error) {
	for _, m := range mechanisms {
		if m.name == name {
			return m.m, nil
		}
	}
	return nil, fmt.Errorf("history: no mechanism %q", name)
}

// view is what one worker process has seen: the token it last got or
// saw for each key, and the keys it saw finished. A replaced worker
// starts with none of it, as a restarted process would.
type view struct {
	token    map[string]int64
	finished map[string]bool
	keys     []string
}

func newView(keys []string) *view {
	return &view{token: map[string]int64{}, finished: map[string]bool{}, keys: keys}
}

// hot returns one of the first hotKeys keys this worker has not seen
// finished: the workers move along the keys together.
func (v *view) hot(r *rand.Rand) string {
	var open []string
	for _, k := range v.keys {
		if !v.finished[k] {
			open = append(open, k)
			if len(open) == hotKeys {
				break
			}
		}
	}
	if len(open) == 0 {
		return v.keys[len(v.keys)-1]
	}
	return open[r.IntN(len(open))]
}

// guess is a token for key near the last this worker saw: sometimes that
// one, sometimes one below it (stale), sometimes above.
func (v *view) guess(r *rand.Rand, key string) int64 {
	return max(1, v.token[key]+int64(r.IntN(4))-1)
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
