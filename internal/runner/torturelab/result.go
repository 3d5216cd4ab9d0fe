package torturelab

// This file holds the run's JSON: the flags echoed, what the workers were
// told in total, what the ledger ends with, the audit, and the plan.

import (
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// result is the JSON of one torture run.
type result struct {
	Command   string `json:"command"`
	Seed      int64  `json:"seed"`
	Processes int    `json:"processes"`
	Messages  int    `json:"messages"`
	Kills     int    `json:"kills"`
	LeaseMs   int64  `json:"lease_ms"`
	// What the workers were told, from their records: claims that began
	// a generation (takeovers among them), claims that renewed one.
	Claims    int `json:"claims"`
	Takeovers int `json:"takeovers"`
	Renewals  int `json:"renewals"`
	// What the ledger ends with: messages DONE, messages DEAD, and the
	// retries its rows count.
	Completes   int            `json:"completes"`
	DeadLetters int            `json:"dead_letters"`
	Retries     int            `json:"retries"`
	Refused     refused        `json:"refused"`
	Pauses      pauses         `json:"pauses"`
	Killed      int            `json:"killed"` // kills done (the plan's, unless the run ended first)
	Ended       string         `json:"ended"`
	Records     records        `json:"records"`
	Audit       audit.Findings `json:"audit"`
	Plan        runPlan        `json:"plan"`
	// Check is the linearizability check of the mailbox's history, only
	// with --check.
	Check   *checked `json:"check,omitempty"`
	Seconds float64  `json:"seconds"`
	// story is what the picture draws; the JSON leaves it out.
	story story
}

// refused counts the refusals the workers were told, by reason.
type refused struct {
	StaleToken   int `json:"stale_token"`
	Terminal     int `json:"terminal"`
	LeaseHeld    int `json:"lease_held"`
	NotClaimable int `json:"not_claimable"`
}

// pauses counts the pauses the workers took.
type pauses struct {
	WithinLease int `json:"within_lease"`
	PastLease   int `json:"past_lease"`
}

// records says what the audit had to go on, and what the kills took.
type records struct {
	Processes int `json:"processes"` // record files: one per worker process started
	Lines     int `json:"lines"`
	Torn      int `json:"torn"`   // lines cut short by a kill, left out
	Errors    int `json:"errors"` // calls that failed without an answer
	// DoneUnrecorded counts DONE messages for which no record says
	// "completed": the completer was killed between its commit and its
	// record. The audit cannot check those completes.
	DoneUnrecorded int `json:"done_unrecorded"`
}

// summarize builds the run's JSON from the plan, the records, the ledger
// and the audit.
func summarize(p runPlan, messages int, logs []audit.Log, l audit.Ledger, f audit.Findings) *result {
	res := &result{
		Command: "torture", Seed: p.Seed, Processes: p.processes, Messages: messages,
		Kills: len(p.Kills), LeaseMs: p.LeaseMs, Audit: f, Plan: p,
	}
	completed := map[string]bool{}
	for _, log := range logs {
		res.Records.Processes++
		res.Records.Torn += log.Torn
		res.Records.Lines += len(log.Records)
		for _, rec := range log.Records {
			if rec.Op == "pause" {
				if rec.PastLease {
					res.Pauses.PastLease++
				} else {
					res.Pauses.WithinLease++
				}
				continue
			}
			// Each result word belongs to one kind of call: only a claim
			// is claimed or renewed, only a complete completed.
			switch rec.Result {
			case audit.Claimed:
				res.Claims++
				if rec.Takeover {
					res.Takeovers++
				}
			case audit.Renewed:
				res.Renewals++
			case audit.Completed:
				completed[rec.ID] = true
			case audit.Failed:
				res.Records.Errors++
			case audit.Refused:
				res.Refused.count(mailbox.Reason(rec.Reason))
			}
		}
	}
	for _, row := range l.Rows {
		switch row.State {
		case mailbox.Done:
			res.Completes++
			if !completed[row.ID] {
				res.Records.DoneUnrecorded++
			}
		case mailbox.Dead:
			res.DeadLetters++
		}
		res.Retries += row.RetryCount
	}
	return res
}

func (r *refused) count(reason mailbox.Reason) {
	switch reason {
	case mailbox.StaleToken:
		r.StaleToken++
	case mailbox.Terminal:
		r.Terminal++
	case mailbox.LeaseHeld:
		r.LeaseHeld++
	case mailbox.NotClaimable:
		r.NotClaimable++
	}
}
