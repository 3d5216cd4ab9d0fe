package lockservicelab

// This file holds the cluster as the coordinator sees it: three member
// processes on loopback ports, which it can kill (kill -9) and start
// again from their data, and whose leader it learns through the status
// API, asked by a lock worker.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// memberCount is the size of the cluster: the smallest that survives the
// loss of one member.
const memberCount = 3

// Members is how many members a cluster has.
const Members = memberCount

// Cluster is a run's etcd cluster: three member processes, children of
// the runner through the worker handshake. The torture run (package
// torturelab) starts one too.
type Cluster struct {
	ctx     context.Context
	args    []MemberArgs
	members []*worker.Process // nil while a member is down
	ids     []string          // each member's id, as the status API reports it
}

// startTries is how many times StartCluster starts a cluster on fresh
// ports before it gives up.
const startTries = 3

// StartCluster starts the members, data under dir, and waits until each
// has joined the cluster. The ports are free when chosen, but are let go
// before the members listen on them: on a shared machine another program
// can take one in between, and the member then fails to start. So a
// cluster that does not come up is stopped, its data removed, and started
// again on fresh ports, up to startTries times in all.
func StartCluster(ctx context.Context, dir string) (*Cluster, error) {
	var err error
	for range startTries {
		var c *Cluster
		if c, err = startCluster(ctx, dir); err == nil || ctx.Err() != nil {
			return c, err
		}
		for i := range memberCount {
			if rerr := os.RemoveAll(filepath.Join(dir, fmt.Sprintf("member-%d", i+1))); rerr != nil {
				return nil, errors.Join(err, rerr)
			}
		}
	}
	return nil, err
}

// startCluster is one try of StartCluster.
func startCluster(ctx context.Context, dir string) (*Cluster, error) {
	ports, err := freePorts(2 * memberCount)
	if err != nil {
		return nil, err
	}
	c := &Cluster{ctx: ctx, members: make([]*worker.Process, memberCount), ids: make([]string, memberCount)}
	var names []string
	for i := range memberCount {
		names = append(names, fmt.Sprintf("member-%d", i+1))
	}
	cluster := clusterOf(names, ports[memberCount:])
	for i, name := range names {
		c.args = append(c.args, MemberArgs{
			Name: name, Dir: filepath.Join(dir, name),
			ClientPort: ports[i], PeerPort: ports[memberCount+i], Cluster: cluster,
		})
	}
	// All three start at once: none is ready before a majority is up.
	for i := range c.args {
		if c.members[i], err = worker.Start(ctx, MemberRole, encode(c.args[i])...); err != nil {
			c.Stop()
			return nil, err
		}
	}
	for i := range c.members {
		if err := c.ready(i); err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// ready waits for member i's first message.
func (c *Cluster) ready(i int) error {
	var r MemberReady
	if err := c.members[i].Recv(&r); err != nil {
		return fmt.Errorf("%s: %w", c.args[i].Name, err)
	}
	c.ids[i] = r.ID
	return nil
}

// Endpoints are the members' client URLs.
func (c *Cluster) Endpoints() []string {
	var eps []string
	for _, a := range c.args {
		eps = append(eps, URL(a.ClientPort))
	}
	return eps
}

// clientPorts are the members' client ports.
func (c *Cluster) clientPorts() []int {
	var ps []int
	for _, a := range c.args {
		ps = append(ps, a.ClientPort)
	}
	return ps
}

// Name is member i's name.
func (c *Cluster) Name(i int) string { return c.args[i].Name }

// Kill kills member i at once, as kill -9 does.
func (c *Cluster) Kill(i int) {
	c.members[i].Kill()
	c.members[i] = nil
}

// Restart starts members again from the data they left, all at once
// (one alone may be no majority, and cannot join before the next is up),
// and waits until each has rejoined.
func (c *Cluster) Restart(members ...int) error {
	for _, i := range members {
		a := c.args[i]
		a.Existing = true
		p, err := worker.Start(c.ctx, MemberRole, encode(a)...)
		if err != nil {
			return err
		}
		c.members[i] = p
	}
	for _, i := range members {
		if err := c.ready(i); err != nil {
			return err
		}
	}
	return nil
}

// leader asks, through the lock worker asker, every member who leads, and
// returns the leader's index.
func (c *Cluster) leader(asker *worker.Process) (int, error) {
	rep, err := worker.Ask[LockReply](asker, LockRequest{Op: OpStatus})
	if err != nil {
		return 0, err
	}
	for _, m := range rep.Members {
		for i, id := range c.ids {
			if m.Leader != "" && m.Leader == id && c.members[i] != nil {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: %+v", errNoLeader, rep.Members)
}

// pollEvery is how often awaitLeader asks the members again.
const pollEvery = 50 * time.Millisecond

// awaitLeader asks, through asker, until a running member reports a
// running leader, and returns the leader's index. It gives up after wait,
// or when ctx ends.
func (c *Cluster) awaitLeader(ctx context.Context, asker *worker.Process, wait time.Duration) (int, error) {
	deadline := time.Now().Add(wait)
	for {
		i, err := c.leader(asker)
		if err == nil || !errors.Is(err, errNoLeader) {
			return i, err
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no leader elected within %v: %w", wait, err)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(pollEvery):
		}
	}
}

// Stop kills every member still running.
func (c *Cluster) Stop() {
	for i, p := range c.members {
		if p != nil {
			p.Stop()
			c.members[i] = nil
		}
	}
}

// freePorts returns n loopback ports nobody listens on now.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
