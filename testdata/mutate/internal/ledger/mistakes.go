package ledger

// This file holds one example of each operator for the mistakes people
// make: an error lost or swapped, a bound dropped, two writes swapped.

import (
	"io"
	"time"
)

// Sync runs write and then flush, and returns write's error if both fail:
// the first failure is the one to report.
func Sync(write, flush func() error) error {
	werr := write()
	ferr := flush()
	if werr != nil {
		return werr
	}
	return ferr
}

// Wait caps a pause at one second.
func Wait(d time.Duration) time.Duration { return min(d, time.Second) }

// Bound returns now + n, clamped to limit when the sum would pass it; the
// fixture's declaration lists it as a clamp.
func Bound(now, n, limit int64) int64 {
	if now > limit-n {
		return limit
	}
	return now + n
}

// Ends returns when a lease of n taken at now ends, never past 100.
func Ends(now, n int64) int64 { return Bound(now, n, 100) }

// Journal writes an entry and then its commit mark: a reader that sees the
// mark must see the entry.
func Journal(w io.Writer, entry string) error {
	if _, err := io.WriteString(w, entry+"\n"); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "commit\n"); err != nil {
		return err
	}
	return nil
}

// The bounds of a journal line: a block of unexported constants used only
// where a variable could stand, so a shared build declares the block a
// variable block and switches its mutants.
const (
	lineMin = 1
	lineMax = 80
)

// retries is a package-level variable: its value is computed when the
// package initializes, where a switch reaches it too.
var retries = 4

// Fits reports whether a journal line of n bytes fits, and how many times
// a write is tried.
func Fits(n int) (bool, int) { return n >= lineMin && n <= lineMax, retries }
