package torturelab

// This file holds what the etcd torture worker (torture --lock etcd)
// shares with its coordinator: its role's name and arguments, the pause
// it asks its parent for, and its records and plan. Its body links in
// etcd and lives in package etcdroles.

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// EtcdWorkerRole is the role of the etcd torture worker; package
// etcdroles gives it its body.
var EtcdWorkerRole = worker.Role{Name: "etcd-torture-worker"}

// EtcdWorkerArgs is what the coordinator hands an etcd torture worker.
type EtcdWorkerArgs struct {
	Endpoints []string `json:"endpoints"`
	Store     string   `json:"store"`
	Records   string   `json:"records"` // the worker's own record file, not yet created
	// History is the worker's own file of store calls, not yet created,
	// in the words of package history (torture --check linearizable).
	History string `json:"history"`
	Owner   string `json:"owner"`
	Slot    int    `json:"slot"`
	Start   int    `json:"start"`
	Seed    int64  `json:"seed"`
	TTL     int    `json:"ttl"` // seconds, of every session
	// Fence says whether the worker's store compares tokens (--fence on)
	// or accepts every write (--fence off, the weakened destination).
	Fence bool `json:"fence"`
}

// Contract is the rule the worker's store admits writes by: the fence
// with --fence on, none with --fence off, as in lockservice.
func (a EtcdWorkerArgs) Contract() fencedstore.Contract {
	if a.Fence {
		return fencedstore.Fence
	}
	return fencedstore.None
}

// Sent is the result word of the record an etcd worker makes just before
// it sends a write to the store. A grant recorded before that instant was
// made before the write was accepted: the judgement of stale writes
// (grants.go) rests on it.
const Sent = "sent"

// HistoryProcess is the number the history gives the start-th process
// of slot: one of its own for every process a run starts.
func (a EtcdWorkerArgs) HistoryProcess() int { return historyProcess(a.Slot, a.Start) }

func (a EtcdWorkerArgs) encode() []string {
	b, _ := json.Marshal(a) // plain strings and numbers: never fails
	return []string{string(b)}
}

// DecodeEtcdWorkerArgs reads an etcd torture worker's one argument.
func DecodeEtcdWorkerArgs(args []string) (EtcdWorkerArgs, error) {
	var a EtcdWorkerArgs
	if len(args) != 1 {
		return a, errWantOneArg
	}
	return a, json.Unmarshal([]byte(args[0]), &a)
}

// PauseRequest is what a worker sends its parent to be stopped (SIGSTOP)
// for PauseMs at least: a real pause, in which no keep-alive leaves the
// process. Key and Token name the lock it holds; an etcd run's parent
// keeps the worker stopped past PauseMs until a successor has claimed
// that key's mark (etcd.go). The parent answers with a PauseRequest of
// its own once it has resumed the worker (SIGCONT).
type PauseRequest struct {
	PauseMs int64  `json:"pause_ms"`
	Key     string `json:"key,omitempty"`
	Token   int64  `json:"token,omitempty"`
}

// Recorder appends one worker process's records to its file, each line
// whole in one write (see record.go).
type Recorder struct{ r *recorder }

// NewRecorder creates the record file at path with its first line.
func NewRecorder(path string, head audit.Log) (*Recorder, error) {
	r, err := createRecorder(path, head)
	if err != nil {
		return nil, err
	}
	return &Recorder{r: r}, nil
}

// Write appends rec.
func (r *Recorder) Write(rec audit.Record) error { return r.r.write(rec) }

// Close closes the file.
func (r *Recorder) Close() error { return r.r.close() }

// pausePastTTLPerMille is the share of the locks an etcd worker wins that
// it pauses on past its lease: fewer than the mailbox run's, since a lease
// here lasts a second, not 40 ms, yet enough that a default run tests the
// fence on every seed. Some pauses never test it: the paused worker is
// killed, the run ends before it wakes, or a member's restart renews its
// lease. 1% of 2000 locks is about 20 pauses per run; with the fence on,
// seeds 1 to 20 each saw at least 3 writes refused as stale (at 4 per
// mille, seed 1 saw none).
const pausePastTTLPerMille = 10

// EtcdPauses hands an etcd worker process its pauses, one per lock it
// wins: 0 for most, and past the lease (two to three leases of ttl
// seconds) for a few. A successor needs the lease to end (one lease after
// the paused worker's last keep-alive), then to win the lock and claim
// the mark, all before the paused worker wakes: the second lease leaves
// that time even on a machine busy enough to slow etcd and the store. The n-th lock of a process gets the
// same pause in every run with one seed.
type EtcdPauses struct {
	r       *rand.Rand
	leaseMs int64 // the lease of ttl seconds
}

// NewEtcdPauses returns the pauses of the start-th process of slot.
func NewEtcdPauses(seed int64, slot, start, ttl int) *EtcdPauses {
	return &EtcdPauses{r: workerRand(seed, slot, start, streamPause), leaseMs: int64(ttl) * 1000}
}

// Next is the pause on the next lock won, in milliseconds.
func (p *EtcdPauses) Next() int64 {
	kind, length := p.r.IntN(1000), p.r.Float64()
	if kind >= pausePastTTLPerMille {
		return 0
	}
	return int64(math.Ceil(float64(p.leaseMs) * (2 + length)))
}

// errWantOneArg is what a role says of a handshake that does not carry
// exactly its one JSON argument.
var errWantOneArg = errors.New("want exactly one argument, the worker's plan as JSON")
