package clock_test

import (
	"testing"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
)

// TestWallReadsTheComputersClockInMilliseconds: Wall is the computer's
// clock, in milliseconds since the Unix epoch: a reading lies between two
// readings of time.Now taken around it, and is never a logical minute or
// a second.
func TestWallReadsTheComputersClockInMilliseconds(t *testing.T) {
	before := time.Now().UnixMilli()
	got := clock.Wall{}.Now()
	after := time.Now().UnixMilli()
	if got < before || got > after {
		t.Fatalf("Wall.Now() = %d; want a time in milliseconds between %d and %d, as time.Now says", got, before, after)
	}
}
