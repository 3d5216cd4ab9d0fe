package torturelab

// This file holds a worker's look for work: which messages might a claim
// take right now? It reads the messages table directly, outside any
// transaction, because the mailbox has no such query: a queue's workers
// poll, and this is the poll. It decides nothing. What it returns may be
// out of date by the time the worker claims it, and that is the point:
// the claim's compare-and-set, in its own transaction, is the only
// judge, and a worker that polled a message another worker just took is
// refused.

import (
	"context"

	"github.com/fencelab/fencelab/internal/mailbox"
)

// candidate is a message a poll found claimable.
type candidate struct {
	rowid int64
	id    string
	state mailbox.State
}

// pollWindow is how many claimable messages a poll returns at most: the
// worker picks one of them at random. Every worker polls the same front
// of the table, so several often pick the same message, and the
// compare-and-set has to choose.
const pollWindow = 8

// firstRow is the rowid of the ledger's first message: SQLite numbers
// rows from 1.
const firstRow = 1

// rewindEvery: every so many polls a worker starts again from the first
// row, so that a message behind its front that became claimable again (a
// retry, a lease that ran out on a killed worker) is not left behind.
const rewindEvery = 16

// candidates is the poll: NEW messages and CLAIMED ones whose lease has
// passed, from rowid from on, in the order they were added.
const candidatesQuery = `SELECT rowid, id, state FROM messages
	WHERE rowid >= ? AND (state = 'NEW' OR (state = 'CLAIMED' AND claim_expires_at <= ?))
	ORDER BY rowid LIMIT ?`

// poll returns up to pollWindow messages a claim could take now.
func (w *tortureWorker) poll(ctx context.Context) ([]candidate, error) {
	w.polls++
	if w.polls%rewindEvery == 0 {
		w.from = firstRow
	}
	now := w.clk.Now()
	found, err := w.candidates(ctx, w.from, now)
	if err == nil && len(found) == 0 && w.from != firstRow {
		w.from = firstRow
		found, err = w.candidates(ctx, w.from, now)
	}
	if len(found) > 0 {
		w.from = found[0].rowid
	}
	return found, err
}

func (w *tortureWorker) candidates(ctx context.Context, from, now int64) ([]candidate, error) {
	rows, err := w.db.Query(ctx, candidatesQuery, from, now, pollWindow)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.rowid, &c.id, &c.state); err != nil {
			return nil, err
		}
		found = append(found, c)
	}
	return found, rows.Err()
}
