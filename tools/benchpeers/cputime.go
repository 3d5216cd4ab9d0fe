package main

// This file reads the CPU time the process has used: user and system, all
// threads, garbage collector included.

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time this process has used so far.
func cpuTime() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
