package worker

import (
	"testing"
	"time"
)

// ShortenReplyTimeout makes every wait for a worker give up after d, for
// the rest of the test t. The test must not run in parallel with others.
func ShortenReplyTimeout(t testing.TB, d time.Duration) {
	saved := replyTimeout
	replyTimeout = d
	t.Cleanup(func() { replyTimeout = saved })
}
