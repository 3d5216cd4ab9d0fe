//go:build !linux

package worker_test

import (
	"flag"
	"runtime"
	"testing"
)

// The tests of killedrunner_linux_test.go, which find a killed run's
// processes through /proc: elsewhere they say why they do not run.

var _ = flag.Bool("kill-etcd", false, "also kill lockservice and torture --lock etcd mid-run (Linux only)")

func TestNothingOutlivesAKilledRunner(t *testing.T) {
	t.Skipf("finding a killed run's processes needs /proc, which is Linux's; not available on %s", runtime.GOOS)
}

func TestNothingOutlivesAKilledEtcdRunner(t *testing.T) {
	t.Skipf("finding a killed run's processes needs /proc, which is Linux's; not available on %s", runtime.GOOS)
}
