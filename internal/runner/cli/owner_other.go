//go:build !linux

package cli

// This file is owner_linux.go where the runner has no portable way to
// tell when a process started: an owner names its pid alone, and since a
// pid is reused, no directory is ever swept. A run killed with kill -9
// leaves its directory for a person to remove.

import (
	"errors"
	"io/fs"
	"os"
)

// thisProcess is this process as an owner: its pid alone.
func thisProcess() owner { return owner{Pid: os.Getpid()} }

// processStart cannot tell when a process started here.
func processStart(int) (string, error) { return "", errors.ErrUnsupported }

// ownedByThisUser is true: only the start time, which nobody has here,
// decides a sweep.
func ownedByThisUser(fs.FileInfo) bool { return true }
