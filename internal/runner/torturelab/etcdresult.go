package torturelab

// This file holds the JSON of torture --lock etcd.

import (
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// etcdResult is the JSON of one etcd torture run.
type etcdResult struct {
	Command    string `json:"command"`
	Lock       string `json:"lock"`
	Seed       int64  `json:"seed"`
	Processes  int    `json:"processes"`
	Messages   int    `json:"messages"`
	Kills      int    `json:"kills"`
	LeaseMs    int64  `json:"lease_ms"`
	TTLSeconds int    `json:"ttl_seconds"`
	// Claims are the locks the workers were granted, from their records.
	Claims int `json:"claims"`
	// Writes and Completes are what the store accepted, from its log.
	Writes    int         `json:"writes"`
	Completes int         `json:"completes"`
	Refused   etcdRefused `json:"refused"`
	// PausesPastLease are the pauses (SIGSTOP) longer than a lease.
	PausesPastLease int            `json:"pauses_past_lease"`
	Killed          int            `json:"killed"`         // worker kills done
	MembersKilled   int            `json:"members_killed"` // member kills done, each restarted
	Ended           string         `json:"ended"`
	Records         records        `json:"records"`
	Audit           audit.Findings `json:"audit"`
	Plan            etcdPlan       `json:"plan"`
	Seconds         float64        `json:"seconds"`
	// story is what the picture draws; the JSON leaves it out.
	story story
}

// etcdRefused counts the refusals the workers were told, by reason.
type etcdRefused struct {
	LockHeld     int `json:"lock_held"`     // another session held the lock
	StaleToken   int `json:"stale_token"`   // the store's mark was above the token
	Terminal     int `json:"terminal"`      // the message was already completed
	SessionEnded int `json:"session_ended"` // the worker's own session had ended before it wrote
}

// summarizeEtcd builds the run's JSON.
func summarizeEtcd(p etcdPlan, messages int, logs []audit.Log, d audit.Destination, f audit.Findings) *etcdResult {
	res := &etcdResult{
		Command: "torture", Lock: lockEtcd, Seed: p.Seed, Processes: p.processes, Messages: messages,
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
		if e.Op == "write" {
			res.Writes++
		} else {
			res.Completes++
		}
	}
	return res
}
