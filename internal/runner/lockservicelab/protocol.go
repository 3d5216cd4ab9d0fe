package lockservicelab

// This file holds what the coordinator and its etcd processes say to each
// other: the roles' names, the arguments each is started with, and the
// requests and replies of the lock workers. The roles' bodies link in etcd
// and live in package etcdroles; this package names them only, so that the
// fencelab binary stays free of etcd.

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// The roles of chapter 10's processes. Only their names are used here
// (worker.Start needs nothing else); package etcdroles gives them bodies.
var (
	MemberRole = worker.Role{Name: "etcd-member"}
	ProxyRole  = worker.Role{Name: "etcd-proxy"}
	LockRole   = worker.Role{Name: "lock-worker"}
)

// MemberArgs is what a member is started with: its place in its cluster
// (package etcdmember's Config, field for field).
type MemberArgs struct {
	Name       string `json:"name"`        // member-1, member-2, member-3
	Dir        string `json:"dir"`         // its data directory, inside the run's temporary directory
	ClientPort int    `json:"client_port"` // where clients reach it, on 127.0.0.1
	PeerPort   int    `json:"peer_port"`   // where the other members reach it
	// Cluster names every member's peer URL: member-1=http://127.0.0.1:p1,...
	Cluster string `json:"cluster"`
	// Existing is true when the member starts again from the data it left
	// behind (a restart), rather than forming a new cluster.
	Existing bool `json:"existing"`
}

// URL is the address of a member's port on loopback.
func URL(port int) string { return "http://127.0.0.1:" + strconv.Itoa(port) }

// clusterOf returns the Cluster value for members named names with peer
// ports ports.
func clusterOf(names []string, ports []int) string {
	parts := make([]string, len(names))
	for i := range names {
		parts[i] = names[i] + "=" + URL(ports[i])
	}
	return strings.Join(parts, ",")
}

// MemberReady is a member's first message: it has joined its cluster.
type MemberReady struct {
	Name string `json:"name"`
	ID   string `json:"id"` // its member id in hex, as the status API reports it
}

// ProxyArgs is what the proxy is started with: one listening port per
// member, forwarding to that member's client port.
type ProxyArgs struct {
	Ports   []int `json:"ports"`
	Targets []int `json:"targets"`
}

// ProxyRequest asks the proxy to cut or restore the traffic.
type ProxyRequest struct {
	Op string `json:"op"` // "cut" or "restore"
}

// LockArgs is what a lock worker is started with.
type LockArgs struct {
	Worker    string   `json:"worker"`    // A or B
	Endpoints []string `json:"endpoints"` // the members' client URLs, or the proxy's
	Store     string   `json:"store"`     // the destination's file
	Fence     bool     `json:"fence"`     // whether the destination checks tokens
}

// The lock workers' operations.
const (
	OpAcquire = "acquire" // wait for the lock (bounded by WaitMs)
	OpTry     = "try"     // take the lock if free, else be refused at once
	OpWrite   = "write"   // check the session, then write with the token
	// OpCheckThenWrite checks the session, replies "checked", and writes
	// only when told OpGo: the gap in which the runner pauses or cuts off
	// the worker.
	OpCheckThenWrite = "check-then-write"
	OpGo             = "go"
	OpStatus         = "status" // ask every member who leads
	// OpCheck asks whether the worker's own client still believes its
	// session alive, the look Fenced takes before a write, without the
	// write; with WaitMs, it first waits that long at most for the session
	// to end.
	OpCheck = "check"
	// OpClaimMark checks the session, then claims the destination's mark
	// with the token: a fenced call with no effect, after which the
	// destination refuses every holder before this one.
	OpClaimMark = "claim-mark"
	// OpEnd ends the worker's session: its lease is revoked, and its lock
	// key, if it still has one, is deleted with it.
	OpEnd = "end"
)

// LockRequest is one request to a lock worker.
type LockRequest struct {
	Op     string `json:"op"`
	Lock   string `json:"lock,omitempty"` // the lock's name, which is also the destination's key
	TTL    int    `json:"ttl,omitempty"`  // seconds, for a session
	WaitMs int    `json:"wait_ms,omitempty"`
}

// The result words of a lock worker's replies.
const (
	Held     = "held"
	Checked  = "checked"
	Accepted = "accepted"
	Refused  = "refused"
	Ended    = "ended"
	Alive    = "alive" // OpCheck: the client believes its session alive
)

// The reasons a lock worker reports a refusal.
const (
	ReasonLockHeld     = "lock_held"     // another session holds the lock
	ReasonNoQuorum     = "no_quorum"     // the cluster did not answer in time, and no member that answers knows a leader
	ReasonTimeout      = "timeout"       // the cluster did not answer in time, though a member knows a leader
	ReasonSessionEnded = "session_ended" // the worker's own session has ended
	ReasonStaleToken   = "stale_token"   // the destination's mark is above the token
)

// LockReply is a lock worker's answer.
type LockReply struct {
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	Token  int64  `json:"token,omitempty"`
	// Members, for OpStatus: what each member says of itself.
	Members []MemberStatus `json:"members,omitempty"`
}

// MemberStatus is one member's answer to the status API.
type MemberStatus struct {
	Endpoint string `json:"endpoint"`
	ID       string `json:"id"`     // hex
	Leader   string `json:"leader"` // hex; "" if it could not be reached
}

// encode is a role's one handshake argument.
func encode(v any) []string {
	b, _ := json.Marshal(v) // plain strings and numbers: never fails
	return []string{string(b)}
}

// Decode reads a role's one handshake argument into v.
func Decode(args []string, v any) error {
	if len(args) != 1 {
		return errWantOneArg
	}
	return json.Unmarshal([]byte(args[0]), v)
}
