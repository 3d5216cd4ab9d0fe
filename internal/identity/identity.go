// Package identity names one start of a process: a random UUID, version 4,
// drawn fresh every time a process starts, and never its PID.
//
// An actor (operator-course) is a durable identity; a process is one
// running instance of the program acting for it. After a restart, or when
// a stalled worker is given up for dead and replaced, two processes act for
// one actor, and the ledger tells them apart by the name each presents.
//
// A PID cannot be that name. It is unique only among the live processes of
// one host and one PID namespace: workers on two hosts, or in two
// containers, can both be PID 1 at the same moment. A paused process keeps
// its PID, but once a process has exited its PID is free, and a later
// process handed the number would inherit whatever the ledger still
// records under it, such as a lease that has not run out. And the tests
// start several actor processes inside one OS process, where every start
// has the same PID. A 122-bit random identity drawn at each start has none
// of these problems.
package identity

import (
	"crypto/rand"
	"fmt"
)

// New returns a fresh process identity: a random UUID version 4 in its
// canonical form, 8-4-4-4-12 lowercase hex digits, for example
// "3f2b8c1e-9d4a-4e6f-a1b2-c3d4e5f60718".
//
// Call it once when a process starts and keep the value for the life of the
// process. It never derives anything from the PID (see the package
// comment).
func New() string {
	var b [16]byte
	// crypto/rand.Read never returns an error: if the system's randomness
	// fails, the program crashes rather than hand out a predictable id.
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4: random
	b[8] = b[8]&0x3f | 0x80 // variant 10: RFC 9562
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
