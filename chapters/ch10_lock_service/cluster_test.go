package lockservice

// This file starts what the chapter's tests lock with: one etcd member
// inside the test process, on loopback ports, its data under the test's
// temporary directory, and clients of it. A single member is a whole
// cluster (it is its own majority); the tests that need members to die
// are the runner's, in testdata/script.

import (
	"net"
	"path/filepath"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"

	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/runner/etcdmember"
)

// leased is what has a lease: a session.
type leased interface{ Lease() clientv3.LeaseID }

// cluster is one test's single-member cluster.
type cluster struct {
	tb       testing.TB
	endpoint string
}

// newCluster starts a member and stops it when the test ends.
func newCluster(tb testing.TB) *cluster {
	tb.Helper()
	ports := freePorts(tb, 2)
	cfg := etcdmember.Config{
		Name: "member-1", Dir: filepath.Join(tb.TempDir(), "member-1"),
		ClientPort: ports[0], PeerPort: ports[1],
		Cluster: etcdmember.ClusterOf([]string{"member-1"}, ports[1:]),
	}
	m, err := etcdmember.Start(tb.Context(), cfg)
	if err != nil {
		tb.Fatalf("set-up: %v", err)
	}
	tb.Cleanup(m.Close)
	return &cluster{tb: tb, endpoint: etcdmember.ClientURL(ports[0])}
}

// freePorts returns n loopback ports nobody listens on.
func freePorts(tb testing.TB, n int) []int {
	tb.Helper()
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatalf("set-up: %v", err)
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// client returns a new client of the cluster: what one worker process
// would have. It closes when the test ends.
func (c *cluster) client() *clientv3.Client {
	c.tb.Helper()
	cli, err := clientv3.New(clientv3.Config{
		Endpoints: []string{c.endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop(),
	})
	if err != nil {
		c.tb.Fatalf("set-up: %v", err)
	}
	c.tb.Cleanup(func() { cli.Close() })
	return cli
}

// session starts a session with the shortest lease the cluster grants,
// on a client of its own.
func (c *cluster) session() *concurrency.Session {
	c.tb.Helper()
	s, err := etcdlock.NewSession(c.tb.Context(), c.client(), etcdmember.MinTTL)
	if err != nil {
		c.tb.Fatalf("set-up: %v", err)
	}
	c.tb.Cleanup(func() { s.Close() })
	return s
}

// acquire takes the lock called name with s, failing the test if it
// cannot.
func (c *cluster) acquire(s *concurrency.Session, name string) *etcdlock.Lock {
	c.tb.Helper()
	l, err := etcdlock.Acquire(c.tb.Context(), s, name)
	if err != nil {
		c.tb.Fatalf("set-up: acquire %s: %v", name, err)
	}
	return l
}
