package lockservicelab

// This file holds the run's JSON, and the two counts that decide a
// case's verdict.

import (
	"fmt"

	"github.com/fencelab/fencelab/internal/fencedstore"
)

// Result is the JSON of one lockservice run.
type Result struct {
	Command string `json:"command"`
	Fence   string `json:"fence"`
	// FenceGives and FenceDoesNotGive name the guarantees the run's
	// destination promises and does not, each with what it means: with the
	// fence on, token order and not mutual exclusion; with it off, neither.
	FenceGives       map[string]string `json:"fence_gives"`
	FenceDoesNotGive map[string]string `json:"fence_does_not_give"`
	Cluster          clusterInfo       `json:"cluster"`
	Cases            []*CaseResult     `json:"cases"`
}

// The guarantees a case is judged by, as Guarantees and the report's
// fence_gives and fence_does_not_give name them.
const (
	tokenOrder      = "token_order"
	mutualExclusion = "mutual_exclusion"
)

// guaranteeMeanings says what each guarantee means, in the report's words.
var guaranteeMeanings = map[string]string{
	tokenOrder:      "writes are accepted in token order: none with a token below the destination's mark",
	mutualExclusion: "the effects of one holder at a time: none from a holder once the lock has passed on, and no second effect",
}

// fenceGuarantees splits the guarantees into those a destination with the
// fence on (or off) gives and those it does not.
func fenceGuarantees(fence bool) (gives, not map[string]string) {
	gives, not = map[string]string{}, map[string]string{}
	for name, meaning := range guaranteeMeanings {
		if fence && name == tokenOrder {
			gives[name] = meaning
		} else {
			not[name] = meaning
		}
	}
	return gives, not
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
	StaleWritesAccepted int `json:"stale_writes_accepted"`
	// BelowMarkWritesAccepted counts calls the destination accepted with a
	// token below its mark at the time: what the fence refuses.
	BelowMarkWritesAccepted int `json:"below_mark_writes_accepted"`
	// Guarantees says which guarantees held in this run.
	Guarantees Guarantees `json:"guarantees"`
	Verdict    string     `json:"verdict"` // safe, ordered or unsafe
	// Remedy is the case played again with a remedy, under a lock and a
	// key of its own; only late-write-before-successor has one.
	Remedy *CaseResult `json:"remedy,omitempty"`

	highestGranted int64   // the greatest token granted so far
	mark           int64   // the destination's mark after the last call
	timeline       []event // for the text drawing
	steps          []step  // for the picture
}

// newCase returns the empty result of case name, whose sessions have
// leases of ttl seconds.
func newCase(name string, ttl int) *CaseResult {
	return &CaseResult{Case: name, TTLSeconds: ttl, Faults: []string{}, Writes: []Write{}}
}

// Guarantees says which of the two guarantees held in a case's run.
type Guarantees struct {
	// TokenOrder: no call was accepted with a token below the
	// destination's mark. The fence gives it.
	TokenOrder bool `json:"token_order"`
	// MutualExclusion: no second effect, and no effect from a holder
	// after the lock had passed on. No fence gives it.
	MutualExclusion bool `json:"mutual_exclusion"`
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
	// Op is "claim_mark" for a claim of the mark, which has no effect;
	// absent for a write.
	Op     string `json:"op,omitempty"`
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
	// Safe: mutual exclusion held (and token order with it).
	Safe = "safe"
	// Ordered: the destination fenced, and token order held, but mutual
	// exclusion did not: the fence's guarantee is all that held.
	Ordered = "ordered"
	// Unsafe: neither guarantee was kept by the destination.
	Unsafe = "unsafe"
)

// claimMarkOp is a Write's Op for a claim of the mark.
const claimMarkOp = "claim_mark"

// granted records that worker was granted the lock with token.
func (c *CaseResult) granted(worker string, token int64) {
	c.Holders = append(c.Holders, Holder{Worker: worker, Token: token})
	c.highestGranted = max(c.highestGranted, token)
	c.note(worker, "lock: token %d", token)
	c.step(step{kind: stepGrant, worker: worker, token: token})
}

// wrote records worker's write (or, with op claimMarkOp, its claim of the
// mark) with token, the destination's answer and its committed state
// after it, and counts the call against the verdict: an accepted call
// below the mark it found breaks token order; an accepted write after a
// greater token was granted is stale, and every accepted write beyond the
// first is a second effect. A claim has no effect to count.
func (c *CaseResult) wrote(worker string, token int64, op string, rep LockReply, after Committed) {
	w := Write{Worker: worker, Token: token, Op: op, Result: rep.Result, Reason: rep.Reason, After: after}
	c.Writes = append(c.Writes, w)
	accepted := w.Result == Accepted
	if accepted && token < c.mark {
		c.BelowMarkWritesAccepted++
	}
	c.mark = after.Mark
	stale := accepted && op == "" && token < c.highestGranted
	c.step(step{kind: stepWrite, worker: worker, token: token, write: w, stale: stale, holder: c.highestGranted})
	if stale {
		c.StaleWritesAccepted++
	}
	effects := 0
	for _, x := range c.Writes {
		if x.Result == Accepted && x.Op == "" {
			effects++
		}
	}
	c.DoubleEffects = max(effects-1, 0)
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

// judge sets the guarantees that held, from the counts, and the verdict
// from them: safe when mutual exclusion held; ordered when only token
// order did, kept by a destination that fences (fence); else unsafe. The
// destination that does not fence keeps nothing: writes that happened to
// arrive in token order are not a guarantee it gave.
func (c *CaseResult) judge(fence bool) {
	c.Guarantees = Guarantees{
		TokenOrder:      c.BelowMarkWritesAccepted == 0,
		MutualExclusion: c.DoubleEffects == 0 && c.StaleWritesAccepted == 0,
	}
	switch {
	case c.Guarantees.MutualExclusion:
		c.Verdict = Safe
	case fence && c.Guarantees.TokenOrder:
		c.Verdict = Ordered
	default:
		c.Verdict = Unsafe
	}
}
