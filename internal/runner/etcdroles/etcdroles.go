// Package etcdroles gives chapter 10's processes their bodies: an etcd
// member, the fault-injecting proxy, and the lock workers. It links in
// etcd's server and client, so only the programs that carry etcd import
// it: the companion (tools/fencelab/withetcd) and chapter 10's tests. The
// coordinators (packages lockservicelab and torturelab) name the roles
// and never import this package.
package etcdroles

import (
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/torturelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Roles are the roles this package plays, to pass to runner.MainWith.
var Roles = []worker.Role{
	{Name: lockservicelab.MemberRole.Name, Run: runMember},
	{Name: lockservicelab.ProxyRole.Name, Run: runProxy},
	{Name: lockservicelab.LockRole.Name, Run: runLockWorker},
	{Name: torturelab.EtcdWorkerRole.Name, Run: runTortureWorker},
}
