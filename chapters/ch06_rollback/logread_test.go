package rollback

// These tests pin reading the arrivals log back: a log that cannot be
// read whole is an error, and a read that failed lets go of the file.

import (
	"context"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// threeCalls is a destination whose log holds three lines: A applied OP-1,
// B's failing call rolled back, B's OP-2 applied.
func threeCalls(t *testing.T) *gatetest.Destination {
	t.Helper()
	d := gatetest.New(t)
	g := d.Gate(gate.FenceReceipt)
	gatetest.Apply(t, g, gate.Request{Fence: 1, Operation: "OP-1", Units: 4})
	gatetest.Apply(t, g, failingB)
	gatetest.Apply(t, g, gate.Request{Fence: 2, Operation: "OP-2", Units: 3})
	return d
}

// TestUnreadableLogIsAnErrorNotAShorterLog: the arrivals log is the one
// record of calls the destination did not commit. When it cannot be read
// whole (the reader gave up before it started, a line is damaged, or the
// read breaks off after the first line), Arrivals says so with an error
// and returns no lines: a shorter log, or a line of zeros, would pass for
// what the destination received.
func TestUnreadableLogIsAnErrorNotAShorterLog(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		when  string // what goes wrong, in words
		spoil func(d *gatetest.Destination, cancel context.CancelFunc) (repair func())
	}{
		{"reader-gave-up", "the reader's context is cancelled before the read",
			func(_ *gatetest.Destination, cancel context.CancelFunc) func() { cancel(); return func() {} }},
		{"damaged-line", "the second line is damaged",
			func(d *gatetest.Destination, _ context.CancelFunc) func() { return d.SpoilArrival(2) }},
		{"read-breaks-off", "the read breaks off after the first line",
			func(d *gatetest.Destination, _ context.CancelFunc) func() { return d.BreakArrivalsReads() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := threeCalls(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			repair := tc.spoil(d, cancel)

			log, err := gate.Open(d.Connect(), gate.None).Arrivals(ctx)

			repair()
			assert.Check(t, err != nil, "Arrivals when %s = %d lines and no error; want an error", tc.when, len(log))
			assert.Check(t, cmp.Len(log, 0), "Arrivals when %s: want no lines beside the error, not a partial log", tc.when)
		})
	}
}

// TestFailedLogReadLetsGoOfTheFile: a read of the arrivals log that stops
// at a damaged line must still close its statement. A statement left open
// keeps a read transaction on an old snapshot, and the write-ahead log
// cannot be copied back past it: every commit after it piles up in the
// -wal file for as long as the reader's connection lives.
func TestFailedLogReadLetsGoOfTheFile(t *testing.T) {
	t.Parallel()
	d := threeCalls(t)
	repair := d.SpoilArrival(2)
	if _, err := gate.Open(d.Connect(), gate.None).Arrivals(t.Context()); err == nil {
		t.Fatalf("set-up: Arrivals with a damaged second line = no error; want an error")
	}
	repair()

	gatetest.Apply(t, d.Gate(gate.FenceReceipt), gate.Request{Fence: 3, Operation: "OP-3", Units: 2})

	assert.Check(t, cmp.Equal(d.UncheckpointedFrames(), 0),
		"frames a checkpoint could not copy after a failed read of the log and a later commit: want none, no reader left open")
}
