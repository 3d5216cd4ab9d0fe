//go:build unix

package lockservicelab

// This file pauses and resumes a worker, the fault of chapter 10's stale
// holder: SIGSTOP freezes the whole process (no keep-alive leaves it, no
// write either) and SIGCONT lets it carry on unaware that its lease ended.
// Both signals exist only on Unix; pause_other.go says so elsewhere.

import (
	"fmt"
	"syscall"
)

// Pause stops process pid (SIGSTOP) until Resume.
func Pause(pid int) error { return signal(pid, syscall.SIGSTOP) }

// Resume lets process pid, stopped by Pause, run again (SIGCONT).
func Resume(pid int) error { return signal(pid, syscall.SIGCONT) }

// signal sends sig to the worker whose process is pid.
func signal(pid int, sig syscall.Signal) error {
	if err := syscall.Kill(pid, sig); err != nil {
		return fmt.Errorf("signal %v to worker %d: %w", sig, pid, err)
	}
	return nil
}
