//go:build !unix

package worker

import (
	"errors"
	"os"
)

// handshakeSocket fails: outside Unix the runner cannot hand a worker a
// descriptor, so no worker can prove its parent started it, and none
// runs.
func handshakeSocket() (parent, child *os.File, err error) {
	return nil, nil, errors.New("workers need a Unix system")
}

// inheritedSocket reports that there is no inherited socket: see
// handshakeSocket.
func inheritedSocket(int) (*os.File, bool) { return nil, false }

// readWritten is never reached: see inheritedSocket.
func readWritten(*os.File) ([]byte, error) { return nil, errors.ErrUnsupported }
