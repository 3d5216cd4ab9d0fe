package worker

import (
	"os"
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

// HandshakeSocket returns the two ends of a handshake socket, made as
// Start makes them: the parent's, to write, and the child's, for
// descriptor 3.
func HandshakeSocket() (parent, child *os.File, err error) { return handshakeSocket() }
