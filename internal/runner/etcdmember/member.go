// Package etcdmember runs one member of the etcd cluster chapter 10's
// experiments use: a real etcd server (go.etcd.io/etcd/server/v3/embed)
// on loopback ports, its data in a directory of the run, with short
// heartbeats so that an election, and the shortest lease the cluster
// grants, take about a second rather than several.
//
// The runner starts each member as a worker process of its own (Role);
// chapter 10's tests start a single member inside the test process
// (Start), where no process boundary is needed.
//
// This package is the only one that links in the etcd server. The
// fencelab binary does not (see package companion).
package etcdmember

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// The cluster's clock: a heartbeat every TickMs, an election after
// ElectionMs to twice that without one. etcd's shortest lease is one and a
// half election timeouts rounded up to whole seconds: 1 s here (its
// default settings give 2 s).
const (
	TickMs     = 50
	ElectionMs = 500
	// MinTTL is the shortest lease, in seconds, a cluster with these
	// settings grants; a session asking for less gets this.
	MinTTL = 1
)

// readyWait bounds how long a member may take to start and join its
// cluster.
const readyWait = 30 * time.Second

// Config is one member's place in its cluster.
type Config struct {
	Name       string `json:"name"`        // member-1, member-2, ...
	Dir        string `json:"dir"`         // its data directory, inside the run's temporary directory
	ClientPort int    `json:"client_port"` // where clients reach it, on 127.0.0.1
	PeerPort   int    `json:"peer_port"`   // where the other members reach it
	// Cluster names every member's peer URL: member-1=http://127.0.0.1:p1,...
	Cluster string `json:"cluster"`
	// Existing is true when the member starts again from the data it
	// left behind (a restart), rather than forming a new cluster.
	Existing bool `json:"existing"`
}

// ClientURL is where a client reaches a member listening on port.
func ClientURL(port int) string { return "http://127.0.0.1:" + strconv.Itoa(port) }

// ClusterOf returns the Cluster value for members named names with peer
// ports ports.
func ClusterOf(names []string, ports []int) string {
	parts := make([]string, len(names))
	for i := range names {
		parts[i] = names[i] + "=" + ClientURL(ports[i])
	}
	return strings.Join(parts, ",")
}

// Member is a running member.
type Member struct {
	etcd *embed.Etcd
}

// Start starts a member as cfg says and waits until it has joined its
// cluster (which needs a majority of the members running) or ctx ends.
func Start(ctx context.Context, cfg Config) (*Member, error) {
	ec, err := embedConfig(cfg)
	if err != nil {
		return nil, err
	}
	e, err := embed.StartEtcd(ec)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return &Member{etcd: e}, nil
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	case <-ctx.Done():
		e.Close()
		return nil, ctx.Err()
	case <-time.After(readyWait):
		e.Close()
		return nil, fmt.Errorf("start %s: not ready within %v", cfg.Name, readyWait)
	}
}

// embedConfig turns cfg into etcd's own configuration.
func embedConfig(cfg Config) (*embed.Config, error) {
	client, err := url.Parse(ClientURL(cfg.ClientPort))
	if err != nil {
		return nil, err
	}
	peer, err := url.Parse(ClientURL(cfg.PeerPort))
	if err != nil {
		return nil, err
	}
	ec := embed.NewConfig()
	ec.Name = cfg.Name
	ec.Dir = cfg.Dir
	ec.ListenClientUrls, ec.AdvertiseClientUrls = []url.URL{*client}, []url.URL{*client}
	ec.ListenPeerUrls, ec.AdvertisePeerUrls = []url.URL{*peer}, []url.URL{*peer}
	ec.InitialCluster = cfg.Cluster
	ec.InitialClusterToken = "fencelab"
	ec.ClusterState = embed.ClusterStateFlagNew
	if cfg.Existing {
		ec.ClusterState = embed.ClusterStateFlagExisting
	}
	ec.TickMs, ec.ElectionMs = TickMs, ElectionMs
	// etcd logs every unreachable peer and lost election; the runner's
	// stderr is for its own diagnostics.
	ec.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	if err := ec.Validate(); err != nil {
		return nil, fmt.Errorf("configure %s: %w", cfg.Name, err)
	}
	return ec, nil
}

// ClientURL is where clients reach the member.
func (m *Member) ClientURL() string { return m.etcd.Clients[0].Addr().String() }

// ID is the member's id in its cluster, as the status API reports it.
func (m *Member) ID() uint64 { return uint64(m.etcd.Server.MemberID()) }

// Close stops the member and waits until it has.
func (m *Member) Close() { m.etcd.Close() }

// errStopped is how Wait reports a member that stopped on its own.
var errStopped = errors.New("etcdmember: the member stopped")

// Wait returns when ctx ends (nil) or the member stops on its own.
func (m *Member) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.etcd.Err():
		return fmt.Errorf("%w: %v", errStopped, err)
	case <-m.etcd.Server.StopNotify():
		return errStopped
	}
}
