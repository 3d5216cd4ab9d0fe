//go:build unix

package worker

// This file tells whether a descriptor this process inherited is a pipe,
// without wrapping it in an *os.File first: a descriptor that is not ours
// to close (in a worker started by hand, descriptor 3 may be one the Go
// runtime opened) must not get a finalizer that closes it.

import (
	"os"
	"syscall"
)

// inheritedPipe returns descriptor fd as a file if it is an open pipe.
func inheritedPipe(fd int) (*os.File, bool) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil, false
	}
	return os.NewFile(uintptr(fd), "handshake"), true
}
