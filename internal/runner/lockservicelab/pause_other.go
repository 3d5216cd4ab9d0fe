//go:build !unix

package lockservicelab

// This file is pause_unix.go outside Unix: there is no signal that stops a
// whole process and lets it carry on later, so a case or a plan that
// pauses a worker fails saying why, rather than running without its fault.

import (
	"fmt"
	"runtime"
)

// Pause would stop process pid; outside Unix it cannot.
func Pause(int) error {
	return fmt.Errorf("pausing a process needs a Unix (SIGSTOP); not available on %s", runtime.GOOS)
}

// Resume would let a paused process run again; outside Unix none is paused.
func Resume(int) error {
	return fmt.Errorf("resuming a paused process needs a Unix (SIGCONT); not available on %s", runtime.GOOS)
}
