// Package identity names one start of a process: a random UUID, version 4,
// drawn fresh every time a process starts, and never its PID.
//
// An actor (operator-course) is a durable identity that outlives any
// process; a process is one running instance of the program that may act
// for it. When a worker crashes and is restarted, two processes can both
// believe they are the same actor, and the ledger must be able to tell them
// apart. A PID cannot: the operating system reuses PIDs, so a restarted
// process can be handed the very PID an older, paused instance still has,
// and the two would look like one. A 122-bit random identity drawn at each
// start does not repeat.
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
