package audit

// This file holds the ledger as the audit sees it once every worker has
// stopped: the committed rows, SQLite's own check of the file, and what a
// claim tried after the run was told.

import "github.com/fencelab/fencelab/internal/mailbox"

// Ledger is the ledger as the audit sees it, after the run.
type Ledger struct {
	// Messages are the ids the run added, in order.
	Messages []string
	// Rows are the committed rows at the end, by id; a message missing
	// here is gone from the table.
	Rows map[string]mailbox.Message
	// Integrity is what PRAGMA integrity_check answered, its lines joined
	// by "; ": "ok" for a sound file.
	Integrity string
	// CheckedAt is when the claims in AfterRun were tried, in wall-clock
	// milliseconds.
	CheckedAt int64
	// AfterRun holds, for each message whose row was neither DONE nor
	// DEAD at the end, what one claim tried after every worker stopped
	// was told.
	AfterRun map[string]ClaimTry
}

// ClaimTry is the answer to a claim the audit tried after the run.
type ClaimTry struct {
	Claimed bool
	Reason  mailbox.Reason // why it was refused, if it was
	Error   string         // a claim that failed without an answer
}
