package model

// This file is the job queue model: claims under a lease fenced by a
// token, takeover after expiry, and the fenced finish, from chapter 5.

import "github.com/fencelab/fencelab/internal/queue"

// Job is one job as the model keeps it.
type Job struct {
	Operation string
	Units     int64
	State     queue.State
	Worker    string // who holds, or last held, the lease; "" while queued
	Fence     Token
	ExpiresAt int64
	Claims    int // successful claims so far: the claim history's length
}

// QueueAnswer is what the model says one queue call returns.
type QueueAnswer struct {
	NotFound  bool
	Refused   queue.Reason // "" when accepted
	Holder    string       // for a refusal: the job's current worker
	Fence     Token        // for an accepted claim
	ExpiresAt int64        // for an accepted claim
}

// Queue is the model of one jobs table and its token counter.
type Queue struct {
	lease  int64
	jobs   map[string]*Job
	minted Token
}

// NewQueue returns an empty model whose leases last lease units of time.
func NewQueue(lease int64) *Queue {
	return &Queue{lease: lease, jobs: map[string]*Job{}}
}

// Add stores a queued job asking for operation with units.
func (q *Queue) Add(id, operation string, units int64) {
	q.jobs[id] = &Job{Operation: operation, Units: units, State: queue.Queued}
}

// Job returns job id as the model has it.
func (q *Queue) Job(id string) (Job, bool) {
	j, ok := q.jobs[id]
	if !ok {
		return Job{}, false
	}
	return *j, true
}

// Minted returns the newest fence the model handed out, or 0.
func (q *Queue) Minted() Token { return q.minted }

// Claim is worker's claim of job id at time now.
//
// The rules (chapter 5): a queued job, or a running one whose lease has ended
// (expires_at <= now), goes to the claimant with a fence greater than
// every fence before it, even when the claimant held the lapsed lease
// itself. There is no renewal: a claim inside any live lease, the
// claimant's own included, is refused lease_held, naming the worker. A
// completed job is refused finished.
func (q *Queue) Claim(id, worker string, now int64) QueueAnswer {
	j, ok := q.jobs[id]
	switch {
	case !ok:
		return QueueAnswer{NotFound: true}
	case j.State == queue.Completed:
		return QueueAnswer{Refused: queue.Finished}
	case j.State == queue.Running && now < j.ExpiresAt:
		return QueueAnswer{Refused: queue.LeaseHeld, Holder: j.Worker}
	}
	q.minted++
	j.State, j.Worker, j.Fence, j.ExpiresAt = queue.Running, worker, q.minted, now+q.lease
	j.Claims++
	return QueueAnswer{Fence: j.Fence, ExpiresAt: j.ExpiresAt}
}

// Finish is worker presenting fence to complete job id.
//
// The rule (chapter 5): completed if and only if the job is running under exactly this
// worker and fence; the clock is not asked. Anything else is refused
// lease_lost, naming the job's current worker. Finishing changes the state
// only.
func (q *Queue) Finish(id, worker string, fence Token) QueueAnswer {
	j, ok := q.jobs[id]
	switch {
	case !ok:
		return QueueAnswer{NotFound: true}
	case j.State == queue.Running && j.Worker == worker && j.Fence == fence:
		j.State = queue.Completed
		return QueueAnswer{}
	}
	return QueueAnswer{Refused: queue.LeaseLost, Holder: j.Worker}
}
