package lockservicelab

// This file holds the run's JSON, and the two counts that decide a
// case's verdict.

import (
	"fmt"

	"github.com/fencelab/fencelab/internal/fencedstore"
)

// Result is the JSON of one lockservice run.
type Result struct {
	Command string        `json:"command"`
	Fence   string        `json:"fence"`
	Cluster clusterInfo   `json:"cluster"`
	Cases   []*CaseResult `json:"cases"`
}

// clusterInfo describes the run's cluster.
type clusterInfo struct {
	Members int `json:"members"`
	// MinTTL is the shortest lease the cluster grants, in seconds.
	MinTTL int `json:"min_ttl_seconds"`
}

// CaseResult is what one case showed.
type CaseResult struct {
	Case       string `json:"case"`
	TTLSeconds int    `json:"ttl_seconds"` // the lease of the case's sessions
	// Holders are the workers the cluster granted the lock, in the order
	// it did, with their tokens.
	Holders []Holder `json:"holders"`
	// Attempts are the lock attempts the cluster did not grant.
	Attempts []Attempt `json:"attempts,omitempty"`
	// Writes are the workers' writes to the destination, in the order
	// they reached it.
	Writes []Write `json:"writes"`
	// Faults are what the runner did to the processes, in order.
	Faults []string `json:"faults"`
	// DestinationFinal is the destination's key for this case at the end.
	DestinationFinal fencedstore.Resource `json:"destination_final"`
	// DoubleEffects counts accepted writes beyond the first: the job was
	// to be done once.
	DoubleEffects int `json:"double_effects"`
	// StaleWritesAccepted counts writes the destination accepted after
	// the cluster had granted the lock to a later holder, with a greater
	// token.
	StaleWritesAccepted int    `json:"stale_writes_accepted"`
	Verdict             string `json:"verdict"` // safe or unsafe

	highestGranted int64   // the greatest token granted so far
	timeline       []event // for the text drawing
	steps          []step  // for the picture
}

// Holder is one grant of the lock.
type Holder struct {
	Worker string `json:"worker"`
	Token  int64  `json:"token"`
}

// Attempt is one lock attempt that was refused.
type Attempt struct {
	Worker string `json:"worker"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

// Write is one write to the destination.
type Write struct {
	Worker string `json:"worker"`
	Token  int64  `json:"token"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	// After is the case's key in the destination once the write was
	// answered, read through a connection of the runner's own.
	After Committed `json:"after"`
}

// Committed is a key's committed state in the destination.
type Committed struct {
	Mark   int64 `json:"mark"`   // the highest token an accepted write presented
	Writes int64 `json:"writes"` // the writes that took effect
}

// The verdicts.
const (
	Safe   = "safe"
	Unsafe = "unsafe"
)

// granted records that worker was granted the lock with token.
func (c *CaseResult) granted(worker string, token int64) {
	c.Holders = append(c.Holders, Holder{Worker: worker, Token: token})
	c.highestGranted = max(c.highestGranted, token)
	c.note(worker, "lock: token %d", token)
	c.step(step{kind: stepGrant, worker: worker, token: token})
}

// wrote records worker's write with token, the destination's answer and
// its committed state after it, and counts the write against the verdict:
// an accepted write after a greater token was granted is stale, and every
// accepted write beyond the first is a second effect.
func (c *CaseResult) wrote(worker string, token int64, rep LockReply, after Committed) {
	w := Write{Worker: worker, Token: token, Result: rep.Result, Reason: rep.Reason, After: after}
	c.Writes = append(c.Writes, w)
	stale := w.Result == Accepted && token < c.highestGranted
	c.step(step{kind: stepWrite, worker: worker, token: token, write: w, stale: stale, holder: c.highestGranted})
	if w.Result == Accepted {
		if stale {
			c.StaleWritesAccepted++
		}
		accepted := 0
		for _, x := range c.Writes {
			if x.Result == Accepted {
				accepted++
			}
		}
		c.DoubleEffects = max(accepted-1, 0)
	}
	c.noteWrite(w)
}

// refused records a lock attempt the cluster did not grant.
func (c *CaseResult) refused(worker string, rep LockReply) {
	c.Attempts = append(c.Attempts, Attempt{Worker: worker, Result: rep.Result, Reason: rep.Reason})
	c.note(worker, "lock: %s %s", rep.Result, rep.Reason)
	c.step(step{kind: stepLockRefused, worker: worker, reason: rep.Reason})
}

// fault records what the runner did to a process: s, with its words for
// the JSON and the text.
func (c *CaseResult) fault(s step, format string, args ...any) {
	c.Faults = append(c.Faults, fmt.Sprintf(format, args...))
	c.noteCluster(format, args...)
	c.step(s)
}

// judge sets the verdict from the counts.
func (c *CaseResult) judge() {
	c.Verdict = Safe
	if c.DoubleEffects > 0 || c.StaleWritesAccepted > 0 {
		c.Verdict = Unsafe
	}
}
