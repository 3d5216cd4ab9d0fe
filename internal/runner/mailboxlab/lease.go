package mailboxlab

// This file holds the lease command: leased claims on msg-2 over logical
// minutes, the refused stale completion, and one worker taking over its own
// expired lease.

import (
	"context"
	"errors"
	"flag"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// LeaseMinutes is how long every claim in the lease and deadletter stories
// lasts. Chapter 3's tests use it too, so the text's numbers (a lease
// granted at minute 0 ends at 15) are the runner's and the tests' alike.
const LeaseMinutes = 15

// Lease is the runner's "lease" command (chapter 3).
var Lease = cli.Command{
	Name:    "lease",
	Summary: "leased claims on msg-2 over logical minutes: renewal keeps the token, takeover mints a greater one",
	New:     func(*flag.FlagSet) cli.Experiment { return leaseExperiment{} },
}

type leaseExperiment struct{}

func (leaseExperiment) Validate() error { return nil }

type leaseResult struct {
	Command      string       `json:"command"`
	LeaseMinutes int          `json:"lease_minutes"`
	Timeline     []leaseEvent `json:"timeline"`
	Completes    []claimEvent `json:"completes"`
	SelfTakeover selfTakeover `json:"self_takeover"`
	Final        final        `json:"final"`
}

type leaseEvent struct {
	Minute    int64  `json:"minute"`
	Worker    string `json:"worker"`
	Result    string `json:"result"` // claimed, still_mine, refused
	Token     int64  `json:"token,omitempty"`
	ExpiresAt int64  `json:"expires_at,omitempty"`
	Holder    string `json:"holder,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

type selfTakeover struct {
	Message          string `json:"message"`
	Worker           string `json:"worker"`
	FirstMinute      int64  `json:"first_minute"`
	SecondMinute     int64  `json:"second_minute"`
	FirstToken       int64  `json:"first_token"`
	SecondToken      int64  `json:"second_token"`
	OldTokenComplete string `json:"old_token_complete"`
	NewTokenComplete string `json:"new_token_complete"`
	// For the picture only: when each lease would end, and why the old
	// token's complete was refused.
	firstExpires, secondExpires int64
	oldReason                   string
}

func (leaseExperiment) Run(ctx context.Context, env cli.Env) (any, error) {
	db, err := openLedger(ctx, env.Dir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var clk clock.Logical
	box := mailbox.Open(db, &clk, LeaseMinutes)
	if err := box.Add(ctx, "msg-2", "Order cones"); err != nil {
		return nil, err
	}

	res := leaseResult{Command: "lease", LeaseMinutes: LeaseMinutes}
	tokens := map[string]int64{} // the token each worker's latest successful claim returned
	for _, step := range []struct {
		minute int64
		worker string
	}{{0, workerA}, {5, workerA}, {10, workerB}, {20, workerB}, {25, workerA}} {
		clk.Set(step.minute)
		ev, err := leaseClaim(ctx, box, "msg-2", step.worker)
		if err != nil {
			return nil, err
		}
		ev.Minute = clk.Now()
		if ev.Token != 0 {
			tokens[step.worker] = ev.Token
		}
		res.Timeline = append(res.Timeline, ev)
	}

	// worker-a never crashed; it stalled past its lease and now finishes,
	// presenting the token its own claim returned. Then worker-b finishes.
	for _, w := range []string{workerA, workerB} {
		out, err := outcomeOf("completed", box.Complete(ctx, "msg-2", w, tokens[w]))
		if err != nil {
			return nil, err
		}
		res.Completes = append(res.Completes, claimEvent{Worker: w, Token: tokens[w], Outcome: out, at: clk.Now()})
	}
	msg, err := box.Get(ctx, "msg-2")
	if err != nil {
		return nil, err
	}
	res.Final = finalOf(msg)

	res.SelfTakeover, err = takeOverOwnLease(ctx, box, &clk)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// leaseClaim claims id for worker and describes the answer as a timeline
// row.
func leaseClaim(ctx context.Context, box *mailbox.Mailbox, id, worker string) (leaseEvent, error) {
	c, err := box.Claim(ctx, id, worker)
	if err == nil {
		ev := leaseEvent{Worker: worker, Result: "claimed", Token: c.Token, ExpiresAt: c.ExpiresAt}
		if c.Renewed {
			ev.Result, ev.ExpiresAt = "still_mine", 0
		}
		return ev, nil
	}
	var r *mailbox.Refusal
	if !errors.As(err, &r) {
		return leaseEvent{}, err
	}
	return leaseEvent{Worker: worker, Result: "refused", Holder: r.Holder, Reason: string(r.Reason)}, nil
}

// takeOverOwnLease lets worker-a claim msg-5, let its lease lapse with
// nobody else claiming, and claim it again: a new generation, so its first
// token can no longer complete.
func takeOverOwnLease(ctx context.Context, box *mailbox.Mailbox, clk *clock.Logical) (selfTakeover, error) {
	st := selfTakeover{Message: "msg-5", Worker: workerA, FirstMinute: 30, SecondMinute: 30 + LeaseMinutes + 1}
	if err := box.Add(ctx, st.Message, "Count the till"); err != nil {
		return st, err
	}
	clk.Set(st.FirstMinute)
	first, err := box.Claim(ctx, st.Message, workerA)
	if err != nil {
		return st, err
	}
	clk.Set(st.SecondMinute)
	second, err := box.Claim(ctx, st.Message, workerA)
	if err != nil {
		return st, err
	}
	st.FirstToken, st.SecondToken = first.Token, second.Token
	st.firstExpires, st.secondExpires = first.ExpiresAt, second.ExpiresAt
	for _, c := range []struct {
		tok    int64
		result *string
		reason *string
	}{{first.Token, &st.OldTokenComplete, &st.oldReason}, {second.Token, &st.NewTokenComplete, new(string)}} {
		out, err := outcomeOf("completed", box.Complete(ctx, st.Message, workerA, c.tok))
		if err != nil {
			return st, err
		}
		*c.result, *c.reason = out.Result, out.Reason
	}
	return st, nil
}
