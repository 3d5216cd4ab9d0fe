// Command withetcd is the fencelab runner with chapter 10's etcd roles
// linked in: an etcd member, the fault-injecting proxy and the lock
// workers. The fencelab binary leaves etcd out of its build, which it
// would more than double, and hands its lockservice and torture --lock
// etcd commands to this program, which it builds and starts in its own
// place (see internal/runner/companion). Run it through fencelab:
//
//	go run ./tools/fencelab lockservice
package main

import (
	"os"

	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/etcdroles"
)

func main() {
	os.Exit(runner.MainWith(etcdroles.Roles))
}
