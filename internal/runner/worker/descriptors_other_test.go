//go:build !linux

package worker_test

// This file is descriptors_test.go outside Linux, where a process cannot
// list its open descriptors in /proc/self/fd: TestMain still names the two
// modes of that file's tests, and since those tests are not built here, no
// test starts this binary in either mode; if someone does, it says why it
// cannot play it.

import (
	"fmt"
	"os"
	"runtime"
)

// The variables of descriptors_test.go's modes.
const (
	noExecutable   = "WORKER_TEST_NO_EXECUTABLE"
	fewDescriptors = "WORKER_TEST_FEW_DESCRIPTORS"
)

// startWithoutExecutable refuses descriptors_test.go's no-executable mode.
func startWithoutExecutable() { refuseDescriptorMode(noExecutable) }

// startWithFewDescriptors refuses descriptors_test.go's few-descriptors mode.
func startWithFewDescriptors(string) { refuseDescriptorMode(fewDescriptors) }

// refuseDescriptorMode exits as the Linux helpers do when they cannot run.
func refuseDescriptorMode(mode string) {
	fmt.Printf("%s counts descriptors in /proc/self/fd, which needs Linux; not available on %s\n", mode, runtime.GOOS)
	os.Exit(3)
}
