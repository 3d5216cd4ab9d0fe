package casclaim

// This file holds the ledger shared by the goroutines of one worker
// process: one *sqlitedb.DB, its kept connections and its prepared
// statements, used by many claims at once. Run it under the race detector
// (make race does) to see that sharing is safe; without it the test still
// shows that sharing changes no answer.

import (
	"fmt"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestOneLedgerServesManyGoroutinesAtOnce: eight goroutines of one worker
// process share one connection pool and one Mailbox, and all at once each
// claims every one of five messages and reads them back. Each message
// ends with exactly one owner, under a token nobody else was handed, and
// the counter issued one token per message: the losers' mints rolled back.
func TestOneLedgerServesManyGoroutinesAtOnce(t *testing.T) {
	t.Parallel()
	const workers, messages = 8, 5
	l := mailboxtest.New(t)
	for m := range messages {
		l.Add(fmt.Sprintf("msg-%d", m+1), "Restock vanilla")
	}
	box := l.Mailbox(mailbox.NoLease) // one pool, shared
	minted := l.Minted()
	wins := make([][]mailbox.Claim, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for m := range messages {
				id := fmt.Sprintf("msg-%d", m+1)
				c, err := box.Claim(t.Context(), id, fmt.Sprintf("worker-%d", w))
				if _, refused := mailbox.ReasonOf(err); err != nil && !refused {
					errs[w] = err
					return
				}
				if err == nil {
					wins[w] = append(wins[w], c)
				}
				if _, err := box.Get(t.Context(), id); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()

	for w, err := range errs {
		assert.NilError(t, err, "worker-%d, one of %d goroutines sharing the ledger", w, workers)
	}
	won, tokens := 0, map[int64]bool{}
	for _, ws := range wins {
		for _, c := range ws {
			won++
			assert.Check(t, !tokens[c.Token], "token %d was handed to two of the goroutines sharing the ledger", c.Token)
			tokens[c.Token] = true
		}
	}
	assert.Check(t, cmp.Equal(won, messages), "claims won by %d goroutines sharing one ledger, each claiming all %d messages; want one per message", workers, messages)
	assert.Check(t, cmp.Equal(l.Minted()-minted, int64(messages)), "tokens minted by the goroutines' claims; want one per message, none for a refusal")
}
