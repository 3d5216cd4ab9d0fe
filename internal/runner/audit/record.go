package audit

// This file holds what the audit reads of each worker: the records, one
// line per answer a worker process was told, in the order it was told
// them. Package torturelab writes them where a kill -9 cannot take them
// back; the audit only reads them.

// Record is one line of a worker's record file: one call the worker made
// on the mailbox and what it was told, or one pause it took.
type Record struct {
	Op string `json:"op"` // claim, complete, dead-letter, pause; read, poll (when they fail)
	ID string `json:"id,omitempty"`
	// Token is, for a claim, the token the worker was given; for a
	// complete or dead-letter, the token it presented.
	Token  int64  `json:"token,omitempty"`
	Result string `json:"result,omitempty"` // see the result words below
	Reason string `json:"reason,omitempty"` // why a call was refused
	Holder string `json:"holder,omitempty"` // who held the lease that refused a claim
	// Takeover marks a claim that began a new generation over a CLAIMED
	// message whose lease had passed, the worker's own included.
	Takeover  bool   `json:"takeover,omitempty"`
	ExpiresAt int64  `json:"expires_at,omitempty"` // a claim's lease end, in wall-clock milliseconds
	PauseMs   int64  `json:"pause_ms,omitempty"`
	PastLease bool   `json:"past_lease,omitempty"`
	Error     string `json:"error,omitempty"` // a call that failed without an answer
	At        int64  `json:"at"`              // when the answer came back, in wall-clock milliseconds
}

// The result words of a record.
const (
	Claimed      = "claimed"       // a claim that began a new generation: a fresh token
	Renewed      = "renewed"       // a claim inside the owner's own live lease: the same token
	Completed    = "completed"     // a complete that was accepted
	Retried      = "retried"       // a dead-letter that sent the message back to NEW
	DeadLettered = "dead_lettered" // a dead-letter that parked the message in DEAD
	Refused      = "refused"       // any call that was refused; Reason says why
	Failed       = "error"         // a call that failed: its outcome is unknown
)

// Log is one worker process's records, in the order it wrote them.
type Log struct {
	Owner string `json:"owner"`
	Pid   int    `json:"pid"`
	Slot  int    `json:"slot"`
	Start int    `json:"start"` // 1 for the slot's first process, 2 for its first replacement, ...
	// Records, in the order the process made the calls.
	Records []Record `json:"-"`
	// Torn counts lines left out because they were cut short: a kill
	// that came in the middle of a write.
	Torn int `json:"-"`
}
