package torturelab

// This file holds the worker's history: each call it makes on the
// mailbox, in package history's words, written the moment before the
// call is made and again when its answer comes (torture --check
// linearizable checks them). A worker killed during a call leaves the
// first line alone: the call was made, and no answer came.

import (
	"context"
	"errors"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/history"
)

// historyProcess is the number the history gives the start-th process of
// slot: one of its own for every process a run starts, which reads as
// the slot and the start (10002: slot 0's second process). A slot starts
// at most 1 + 1000 processes (--kills is at most 1000), so the starts
// never reach the next slot's numbers.
func historyProcess(slot, start int) int { return (slot+1)*10000 + start }

// claimCall claims message id, recorded in the history. The mailbox's
// clock is set to the worker's own just before, so that the time the
// history records is the time the claim's lease is judged by.
// callErr is the claim's refusal or failure; err, a history that could
// not be written.
func (w *tortureWorker) claimCall(ctx context.Context, id string) (c mailbox.Claim, callErr, err error) {
	now := w.clk.Now()
	w.at.Set(now)
	answered, err := w.hist.Call(history.Op{Kind: history.Claim, Key: id, Actor: w.owner, Now: now})
	if err != nil {
		return c, nil, err
	}
	c, callErr = w.box.Claim(ctx, id, w.owner)
	out := history.Out{Result: history.OK, Token: c.Token, Expires: c.ExpiresAt, Renewed: c.Renewed}
	return c, callErr, answered(historyOut(out, callErr))
}

// readCall reads message id as committed, recorded in the history.
func (w *tortureWorker) readCall(ctx context.Context, id string) (m mailbox.Message, callErr, err error) {
	answered, err := w.hist.Call(history.Op{Kind: history.Read, Key: id})
	if err != nil {
		return m, nil, err
	}
	m, callErr = w.box.Get(ctx, id)
	out := history.Out{Result: history.OK, State: string(m.State), Holder: m.Owner, Token: m.Token,
		Expires: m.ExpiresAt, Retries: int64(m.RetryCount)}
	return m, callErr, answered(historyOut(out, callErr))
}

// completeCall completes message id under tok, recorded in the history.
func (w *tortureWorker) completeCall(ctx context.Context, id string, tok int64) (callErr, err error) {
	answered, err := w.hist.Call(history.Op{Kind: history.Complete, Key: id, Actor: w.owner, Token: tok})
	if err != nil {
		return nil, err
	}
	callErr = w.box.Complete(ctx, id, w.owner, tok)
	return callErr, answered(historyOut(history.Out{Result: history.OK}, callErr))
}

// deadLetterCall dead-letters message id under tok, recorded in the
// history with the verdict as its result.
func (w *tortureWorker) deadLetterCall(ctx context.Context, id string, tok int64) (v mailbox.Verdict, callErr, err error) {
	answered, err := w.hist.Call(history.Op{Kind: history.DeadLetter, Key: id, Actor: w.owner, Token: tok})
	if err != nil {
		return "", nil, err
	}
	v, callErr = w.box.DeadLetter(ctx, id, tok)
	return v, callErr, answered(historyOut(history.Out{Result: string(v)}, callErr))
}

// historyOut is the answer the history records for a call that returned
// callErr: out itself when it succeeded, the refusal and its reason when
// the mailbox refused, and no answer when the call failed (it may have
// taken effect or not).
func historyOut(out history.Out, callErr error) history.Out {
	var r *mailbox.Refusal
	switch {
	case callErr == nil:
		return out
	case errors.As(callErr, &r):
		return history.Out{Result: history.Refused, Reason: string(r.Reason), Holder: r.Holder}
	}
	return history.Out{Result: history.Unknown}
}
