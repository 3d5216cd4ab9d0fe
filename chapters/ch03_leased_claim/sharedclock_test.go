package leasedclaim

// This file holds the one clock every worker of a test reads. The test
// moves it while the workers' goroutines read it: under the race
// detector (make race runs this chapter with -race) an unguarded read or
// write fails the test; without it, the test still shows that every lease
// is judged by a time the clock really showed.

import (
	"fmt"
	"sync"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// TestOneClockIsReadAndMovedByManyWorkersAtOnce: one logical clock is
// moved forward ten minutes at a time, to minute 1000, while eight
// workers, each with its own mailbox and each on its own goroutine, claim
// a message of their own. Each lease ends 15 minutes after a time the
// clock showed: a minute it was set to, never a torn or made-up one.
func TestOneClockIsReadAndMovedByManyWorkersAtOnce(t *testing.T) {
	t.Parallel()
	const workers, last, step = 8, 1000, 10
	l := mailboxtest.New(t)
	for w := range workers {
		l.Add(fmt.Sprintf("msg-%d", w+1), "Restock vanilla")
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for m := int64(step); m <= last; m += step {
			l.Clock.Set(m)
		}
	})
	ends := make([]int64, workers)
	errs := make([]error, workers)
	for w := range workers {
		box := l.Mailbox(lease)
		wg.Go(func() {
			c, err := box.Claim(t.Context(), fmt.Sprintf("msg-%d", w+1), fmt.Sprintf("worker-%d", w+1))
			ends[w], errs[w] = c.ExpiresAt, err
		})
	}
	wg.Wait()

	for w := range workers {
		assert.NilError(t, errs[w], "worker-%d's claim while the shared clock moved", w+1)
		took := ends[w] - lease
		assert.Check(t, took >= 0 && took <= last && took%step == 0,
			"worker-%d's lease ends at minute %d, so it read minute %d; want a minute the shared clock showed (0 to %d, every %d)",
			w+1, ends[w], took, last, step)
	}
	assert.Equal(t, l.Clock.Now(), int64(last), "the shared clock after it was moved to minute %d", last)
}
