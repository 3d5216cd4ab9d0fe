package mailboxlab

// This file holds the deadletter command: msg-3 fails four times against a
// retry budget of three and ends DEAD, and a stale copy of another message
// tries to retry it.

import (
	"context"
	"flag"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// DeadLetter is the runner's "deadletter" command (chapter 4).
var DeadLetter = cli.Command{
	Name:    "deadletter",
	Summary: "msg-3 fails against a retry budget of 3 and ends DEAD; a stale token cannot retry",
	New:     func(*flag.FlagSet) cli.Experiment { return deadLetterExperiment{} },
}

type deadLetterExperiment struct{}

func (deadLetterExperiment) Validate() error { return nil }

type deadLetterResult struct {
	Command    string    `json:"command"`
	MaxRetries int       `json:"max_retries"`
	Attempts   []attempt `json:"attempts"`
	Final      deadFinal `json:"final"`
	StaleCopy  staleCopy `json:"stale_copy"`
}

type attempt struct {
	Attempt int    `json:"attempt"`
	Minute  int64  `json:"minute"`
	Token   int64  `json:"token"`
	Verdict string `json:"verdict"`          // retried, dead_lettered, or refused
	Reason  string `json:"reason,omitempty"` // why, when refused
}

type deadFinal struct {
	State      string `json:"state"`
	RetryCount int    `json:"retry_count"`
	Body       string `json:"body"`
}

// staleCopy is msg-4's story: worker-a claimed it, stalled past its lease,
// worker-b took it over, and worker-a then asks for a retry with the token
// from its stale in-memory copy.
type staleCopy struct {
	Message         string `json:"message"`
	PresentedToken  int64  `json:"presented_token"`
	CurrentToken    int64  `json:"current_token"`
	Verdict         string `json:"verdict"`
	Reason          string `json:"reason,omitempty"`
	StateAfter      string `json:"state_after"`
	OwnerAfter      string `json:"owner_after"`
	RetryCountAfter int    `json:"retry_count_after"`
	// For the picture only: the two claims' minutes and lease ends, and
	// the row's token after the report.
	presentedAt, currentAt       int64
	presentedUntil, currentUntil int64
	tokenAfter                   int64
}

func (deadLetterExperiment) Run(ctx context.Context, env cli.Env) (any, error) {
	db, err := openLedger(ctx, env.Dir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var clk clock.Logical
	box := mailbox.Open(db, &clk, LeaseMinutes)
	if err := box.Add(ctx, "msg-3", "Call the supplier"); err != nil {
		return nil, err
	}

	res := deadLetterResult{Command: "deadletter", MaxRetries: mailbox.MaxRetries}
	for i := 0; i <= mailbox.MaxRetries; i++ {
		clk.Set(int64(100 + i))
		c, err := box.Claim(ctx, "msg-3", workerA)
		if err != nil {
			return nil, err
		}
		// The work failed; the holder reports it with the token its claim
		// returned.
		v, err := box.DeadLetter(ctx, "msg-3", c.Token)
		out, err := outcomeOf(string(v), err)
		if err != nil {
			return nil, err
		}
		res.Attempts = append(res.Attempts, attempt{Attempt: i, Minute: clk.Now(), Token: c.Token, Verdict: out.Result, Reason: out.Reason})
	}
	msg, err := box.Get(ctx, "msg-3")
	if err != nil {
		return nil, err
	}
	res.Final = deadFinal{State: string(msg.State), RetryCount: msg.RetryCount, Body: msg.Body}

	res.StaleCopy, err = retryFromStaleCopy(ctx, box, &clk)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func retryFromStaleCopy(ctx context.Context, box *mailbox.Mailbox, clk *clock.Logical) (staleCopy, error) {
	sc := staleCopy{Message: "msg-4"}
	if err := box.Add(ctx, sc.Message, "Reorder sprinkles"); err != nil {
		return sc, err
	}
	sc.presentedAt, sc.currentAt = 200, 200+LeaseMinutes
	clk.Set(sc.presentedAt)
	old, err := box.Claim(ctx, sc.Message, workerA)
	if err != nil {
		return sc, err
	}
	clk.Set(sc.currentAt)
	cur, err := box.Claim(ctx, sc.Message, workerB)
	if err != nil {
		return sc, err
	}
	sc.PresentedToken, sc.CurrentToken = old.Token, cur.Token
	sc.presentedUntil, sc.currentUntil = old.ExpiresAt, cur.ExpiresAt
	v, err := box.DeadLetter(ctx, sc.Message, old.Token)
	out, err := outcomeOf(string(v), err)
	if err != nil {
		return sc, err
	}
	sc.Verdict, sc.Reason = out.Result, out.Reason
	msg, err := box.Get(ctx, sc.Message)
	if err != nil {
		return sc, err
	}
	sc.StateAfter, sc.OwnerAfter, sc.RetryCountAfter = string(msg.State), msg.Owner, msg.RetryCount
	sc.tokenAfter = msg.Token
	return sc, nil
}
