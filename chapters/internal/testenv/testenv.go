// Package testenv says what the chapters' tests need from the system they
// run on, as the Go tree's internal/testenv does: each Must function skips
// the test, with one line naming what is missing, where the system lacks
// it. The chapters' scripts say the same with the [unix] condition, which
// is true on the same systems.
//
// What only a Unix gives the runner: worker processes, which take their
// handshake on an inherited descriptor 3 (internal/runner/worker/
// handshake.go; outside Unix no child can inherit one, so none starts),
// and pausing one of them (SIGSTOP, then SIGCONT).
package testenv

import (
	"runtime"
	"testing"

	"github.com/rogpeppe/go-internal/imports"
)

// unix reports whether this system is a Unix: what the unix build
// constraint and testscript's [unix] condition test.
var unix = imports.UnixOS[runtime.GOOS]

// MustHaveWorkerProcesses skips tb where the runner cannot start a worker
// as a process of its own.
func MustHaveWorkerProcesses(tb testing.TB) {
	tb.Helper()
	if !unix {
		tb.Skipf("needs a Unix to start worker processes (their handshake comes on an inherited descriptor 3): not available on %s", runtime.GOOS)
	}
}

// MustHavePause skips tb where a worker process cannot be paused (SIGSTOP)
// and resumed (SIGCONT). Where it can, worker processes can be started
// too.
func MustHavePause(tb testing.TB) {
	tb.Helper()
	if !unix {
		tb.Skipf("needs a Unix to start a worker process and pause it (SIGSTOP, SIGCONT): not available on %s", runtime.GOOS)
	}
}
