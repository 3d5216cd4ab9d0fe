package clock

// This file holds Wall, the one Clock in fencelab that reads the
// computer's clock. It exists for `fencelab torture` alone: many worker
// processes, leases a few milliseconds long, pauses and kill -9 at
// moments nobody chose. There, time is whatever the machine says, and the
// run's worth is that nobody picked the interleaving. Everywhere else a
// lease is judged by logical time (Logical, Fixed), because a test that
// depends on the wall clock depends on how busy the machine is.

import "time"

// Wall is a Clock that reads the operating system's wall clock, in
// milliseconds since the Unix epoch. Its zero value is ready to use, and
// every process that uses it on one machine reads the same clock: a lease
// one worker process takes until t ends at t for every other process too.
//
// Wall moves on its own and may even step backwards when the system's
// time is set. Only the torture run uses it; see the package comment.
type Wall struct{}

var _ Clock = Wall{}

// Now returns the current wall-clock time in milliseconds since the Unix
// epoch.
func (Wall) Now() int64 { return time.Now().UnixMilli() }
