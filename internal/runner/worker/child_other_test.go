//go:build !linux

package worker_test

import (
	"runtime"
	"testing"
)

// The tests of child_linux_test.go, where the system cannot have a child
// killed when its parent dies: StartChild is exec.Cmd.Start there.

func TestAChildDiesWithItsParentEvenStopped(t *testing.T) {
	t.Skipf("a child killed with its parent needs Linux (PR_SET_PDEATHSIG); not available on %s", runtime.GOOS)
}

func TestAChildOutlivesTheThreadThatStartedIt(t *testing.T) {
	t.Skipf("a child tied to the thread that forked it is Linux's (PR_SET_PDEATHSIG); not on %s", runtime.GOOS)
}

func TestKillEndsTheChildsGroup(t *testing.T) {
	t.Skipf("a worker leads a process group of its own on Linux only; not on %s", runtime.GOOS)
}
