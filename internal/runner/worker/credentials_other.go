//go:build unix && !linux

package worker

// This file is credentials_linux.go where the kernel does not say, with
// what a socket delivers, which process wrote it: there the worker must
// take the pid the handshake names, and a program that writes a
// handshake for a child it did not start is not told apart.

import (
	"io"
	"os"
)

// passCredentials does nothing: see the file's comment.
func passCredentials(int) error { return nil }

// readWritten reads f, the handshake socket, to its end or to
// handshakeLimit bytes.
func readWritten(f *os.File) ([]byte, error) {
	return io.ReadAll(io.LimitReader(f, handshakeLimit))
}
