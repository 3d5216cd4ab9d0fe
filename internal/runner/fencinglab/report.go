package fencinglab

// This file holds the report the runner prints: its keys are the contract
// in internal/runner/CONTRACT.md, section "fencelab fencing".

import (
	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/queue"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Report is the whole run.
type Report struct {
	Command string       `json:"command"`
	Units   int64        `json:"units"`
	Cases   []CaseReport `json:"cases"`
}

// CaseReport is one case, from both workers' claims to the final state of
// both databases.
type CaseReport struct {
	Case                string        `json:"case"`
	DestinationContract gate.Contract `json:"destination_contract"`
	CoordinatorPid      int           `json:"coordinator_pid"`
	OldWorkerPid        int           `json:"old_worker_pid"`
	OldWorkerExit       worker.Exit   `json:"old_worker_exit"`
	QueueClaims         []Claim       `json:"queue_claims"`
	Attempts            []Attempt     `json:"attempts"` // in arrival order
	OldWorkerFinish     Finish        `json:"old_worker_finish"`
	NewWorkerFinish     Finish        `json:"new_worker_finish"`
	QueueFinal          QueueFinal    `json:"queue_final"`
	DestinationFinal    gate.State    `json:"destination_final"`
}

// Claim is one successful queue claim.
type Claim struct {
	Tick      int64  `json:"tick"`
	Worker    string `json:"worker"`
	Fence     int64  `json:"fence"`
	ExpiresAt int64  `json:"expires_at"`
}

// Attempt is one destination call, with the committed destination state
// around it (read through a separate connection) and the queue row right
// after it.
type Attempt struct {
	Tick      int64       `json:"tick"`
	Worker    string      `json:"worker"`
	Fence     int64       `json:"fence"`
	Operation string      `json:"operation"`
	Units     int64       `json:"units"`
	Before    gate.State  `json:"before"`
	Result    gate.Result `json:"result"`
	After     gate.State  `json:"after"`
	// UncommittedFailureView is the failing connection's own view just
	// before it rolled back; only a rolled_back attempt has one.
	UncommittedFailureView *gate.State `json:"uncommitted_failure_view,omitempty"`
	QueueAfterDestination  QueueRow    `json:"queue_after_destination"`
}

// QueueRow is the job's lease as the queue has committed it.
type QueueRow struct {
	State  queue.State `json:"state"`
	Worker string      `json:"worker"`
	Fence  int64       `json:"fence"`
}

// Finish is one worker's call to finish the job.
type Finish struct {
	Tick   int64  `json:"tick"`
	Fence  int64  `json:"fence"`
	Result string `json:"result"` // completed, or the refusal reason (lease_lost)
}

// QueueFinal is the job as the queue committed it at the end.
type QueueFinal struct {
	Job    string      `json:"job"`
	State  queue.State `json:"state"`
	Worker string      `json:"worker"`
	Fence  int64       `json:"fence"`
	Claims int         `json:"claims"`
}

func queueRow(j queue.Job) QueueRow {
	return QueueRow{State: j.State, Worker: j.Worker, Fence: j.Fence}
}

func queueFinal(j queue.Job) QueueFinal {
	return QueueFinal{Job: j.ID, State: j.State, Worker: j.Worker, Fence: j.Fence, Claims: j.Claims}
}
