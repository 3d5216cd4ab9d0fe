package torturelab

// This file holds the JSON of torture --lock etcd.

import (
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// etcdResult is the JSON of one etcd torture run.
type etcdResult struct {
	Command    string `json:"command"`
	Lock       string `json:"lock"`
	Fence      string `json:"fence"` // on or off, as --fence gave it
	Seed       int64  `json:"seed"`
	Processes  int    `json:"processes"`
	Messages   int    `json:"messages"`
	Kills      int    `json:"kills"`
	LeaseMs    int64  `json:"lease_ms"`
	TTLSeconds int    `json:"ttl_seconds"`
	// Claims are the locks the workers were granted, from their records.
	Claims int `json:"claims"`
	// Writes, Completes and MarkClaims are what the store accepted, from
	// its log. A mark claim is a new holder's first call (chapter 10's
	// remedy): it moves the key's mark to its token and has no effect.
	Writes     int         `json:"writes"`
	Completes  int         `json:"completes"`
	MarkClaims int         `json:"mark_claims"`
	Refused    etcdRefused `json:"refused"`
	// PausesPastLease are the pauses (SIGSTOP) longer than a lease.
	PausesPastLease int       `json:"pauses_past_lease"`
	Killed          int       `json:"killed"`         // worker kills done
	MembersKilled   int       `json:"members_killed"` // member kills done, each restarted
	Ended           string    `json:"ended"`
	Records         records   `json:"records"`
	Audit           etcdAudit `json:"audit"`
	Plan            etcdPlan  `json:"plan"`
	// Check is the linearizability check of the store's history, only
	// with --check.
	Check   *checked `json:"check,omitempty"`
	Seconds float64  `json:"seconds"`
	// story is what the picture draws; the JSON leaves it out.
	story story
}

// etcdAudit is the audit of an etcd run: the store audit's counts, with
// its stale writes judged against the grants (grants.go), the writes the
// store refused as stale beside them, and whether the fence was tested.
type etcdAudit struct {
	audit.Findings
	Refused fenceRefusals `json:"refused"`
	// FenceTested is false when no write reached the store with a token
	// below one already granted, and none was refused as stale; FenceNote
	// then says so in words.
	FenceTested bool   `json:"fence_tested"`
	FenceNote   string `json:"fence_note,omitempty"`
}

// fenceRefusals counts the writes the store refused, by reason.
type fenceRefusals struct {
	StaleToken int `json:"stale_token"` // the token was below the key's mark
}

// fenceUntested is what the audit of a run that never tested the fence
// says.
const fenceUntested = "the fence was not tested by this run"

// auditEtcd audits the store d against the records in logs: the store
// audit, with every accepted write judged against the grants.
func auditEtcd(d audit.Destination, logs []audit.Log) etcdAudit {
	j := judgeWrites(logs, d.Log)
	a := etcdAudit{
		Findings:    withStaleWrites(audit.AuditStore(d, logs), j, d.Keys),
		Refused:     fenceRefusals{StaleToken: j.Refused},
		FenceTested: j.FenceTested(),
	}
	if !a.FenceTested {
		a.FenceNote = fenceUntested
	}
	return a
}

// etcdRefused counts the refusals the workers were told, by reason.
type etcdRefused struct {
	LockHeld     int `json:"lock_held"`     // another session held the lock
	StaleToken   int `json:"stale_token"`   // the store's mark was above the token
	Terminal     int `json:"terminal"`      // the message was already completed
	SessionEnded int `json:"session_ended"` // the worker's own session had ended before it wrote
}

// summarizeEtcd builds the run's JSON.
func summarizeEtcd(p etcdPlan, messages int, logs []audit.Log, d audit.Destination, f etcdAudit) *etcdResult {
	res := &etcdResult{
		Command: "torture", Lock: lockEtcd, Fence: fenceWord(p.Fence), Seed: p.Seed, Processes: p.processes, Messages: messages,
		Kills: len(p.Kills) + len(p.MemberKills), LeaseMs: p.LeaseMs, TTLSeconds: p.TTL, Audit: f, Plan: p,
	}
	for _, log := range logs {
		res.Records.Processes++
		res.Records.Torn += log.Torn
		res.Records.Lines += len(log.Records)
		for _, rec := range log.Records {
			switch {
			case rec.Op == "claim" && rec.Result == audit.Claimed:
				res.Claims++
			case rec.Result == Sent:
				// not an answer: the moment a write was sent
			case rec.Op == "pause":
				res.PausesPastLease++
			case rec.Result == audit.Failed:
				res.Records.Errors++
			case rec.Result == audit.Refused:
				switch rec.Reason {
				case "lock_held":
					res.Refused.LockHeld++
				case "stale_token":
					res.Refused.StaleToken++
				case "terminal":
					res.Refused.Terminal++
				case "session_ended":
					res.Refused.SessionEnded++
				}
			}
		}
	}
	for _, e := range d.Log {
		switch e.Op {
		case "write":
			res.Writes++
		case "complete":
			res.Completes++
		case "claim":
			res.MarkClaims++
		}
	}
	return res
}
