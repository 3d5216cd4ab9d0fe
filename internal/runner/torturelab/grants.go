package torturelab

// This file judges the writes of torture --lock etcd against the locks
// the run recorded, as lockservice judges a case's writes (its
// highestGranted): a write the store accepted is stale when its token is
// below the highest token the cluster had granted for its key before the
// write was accepted. The store's own log cannot tell this alone: a store
// that does not compare tokens (--fence off) logs a stale write like any
// other, and a fenced one logs only what it let through.
//
// A grant is known from its holder's claim record, written once the lock
// was won; a write's moment from the Sent record its worker made just
// before sending it. A grant recorded before a write was sent was made
// before that write was accepted. So was the grant of any write the store
// accepted earlier for the same key, in its commit order. Those are the
// two proofs the judgement takes; without one (a tie within a
// millisecond, a grant whose record a kill took back) a write is not
// called stale: a missing record can hide a stale write, never make one
// up.

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// grant is one lock a worker process recorded winning.
type grant struct {
	token int64
	at    int64  // when its holder recorded it, in wall-clock milliseconds
	who   string // the holder's owner name
}

// writeJudgement is what judging a run's writes against its grants found.
type writeJudgement struct {
	// Stale are the accepted writes whose token was below a grant made
	// before they were accepted, one violation each, in commit order.
	Stale []audit.Violation
	// Attempts counts the writes sent with a token below a grant recorded
	// before they were sent, whatever the store answered.
	Attempts int
	// Refused counts the writes the store refused as stale, from the
	// workers' records.
	Refused int
}

// FenceTested reports whether the run put the fence to the test: some
// write reached the store with a token below one already granted, or was
// refused as stale.
func (j writeJudgement) FenceTested() bool {
	return j.Refused > 0 || j.Attempts > 0 || len(j.Stale) > 0
}

// judgeWrites judges every write in the store's log of accepted calls
// against the grants recorded in logs.
func judgeWrites(logs []audit.Log, accepted []fencedstore.Entry) writeJudgement {
	var j writeJudgement
	grants := map[string][]grant{}
	sent := map[string]map[int64]int64{} // when each write was sent, by key and token
	for _, log := range logs {
		for _, rec := range log.Records {
			switch {
			case rec.Op == "claim" && rec.Result == audit.Claimed:
				grants[rec.ID] = append(grants[rec.ID], grant{token: rec.Token, at: rec.At, who: log.Owner})
			case rec.Op == "write" && rec.Result == Sent:
				if sent[rec.ID] == nil {
					sent[rec.ID] = map[int64]int64{}
				}
				sent[rec.ID][rec.Token] = rec.At
			case rec.Op == "write" && rec.Result == audit.Refused && rec.Reason == string(fencedstore.StaleToken):
				j.Refused++
			}
		}
	}
	for key, byToken := range sent {
		for token, at := range byToken {
			if highestBefore(grants[key], at).token > token {
				j.Attempts++
			}
		}
	}
	top := map[string]fencedstore.Entry{} // the accepted write with the greatest token so far, by key
	for _, e := range accepted {
		if e.Op != "write" {
			continue
		}
		if v, stale := judgeWrite(e, grants[e.Key], sent[e.Key], top[e.Key]); stale {
			j.Stale = append(j.Stale, v)
		}
		if e.Token > top[e.Key].Token {
			top[e.Key] = e
		}
	}
	return j
}

// judgeWrite judges accepted write e against the grants of its key, the
// moments its writes were sent (by token) and the write with the greatest
// token its key had accepted before e; it returns the violation if e is
// stale.
func judgeWrite(e fencedstore.Entry, grants []grant, sent map[int64]int64, earlier fencedstore.Entry) (audit.Violation, bool) {
	var g grant
	if at, ok := sent[e.Token]; ok {
		g = highestBefore(grants, at)
	}
	detail := fmt.Sprintf("%s: the store accepted %s's write with token %d after %s had been granted the lock with token %d",
		e.Key, e.Writer, e.Token, g.who, g.token)
	if earlier.Token > g.token {
		g = grant{token: earlier.Token}
		detail = fmt.Sprintf("%s: the store accepted %s's write with token %d after it had accepted %s's write with token %d",
			e.Key, e.Writer, e.Token, earlier.Writer, earlier.Token)
	}
	if e.Token >= g.token {
		return audit.Violation{}, false
	}
	return audit.Violation{Kind: audit.StaleWrite, ID: e.Key, Detail: detail}, true
}

// highestBefore is the grant with the greatest token among those
// recorded strictly before at; the zero grant if there is none.
func highestBefore(grants []grant, at int64) grant {
	var best grant
	for _, g := range grants {
		if g.at < at && g.token > best.token {
			best = g
		}
	}
	return best
}

// withStaleWrites returns f with its stale writes replaced by those of
// j: the store audit's own (a write below one the store had accepted) are
// among them, since a write accepted earlier was granted earlier. The
// violations stay in the audit's order: the file's first, then key by
// key in the order of keys, a double completion before a stale write and
// a stale write before the rest.
func withStaleWrites(f audit.Findings, j writeJudgement, keys []string) audit.Findings {
	vs := slices.DeleteFunc(slices.Clone(f.Violations), func(v audit.Violation) bool { return v.Kind == audit.StaleWrite })
	vs = append(vs, j.Stale...)
	position := map[string]int{"": -1}
	for i, k := range keys {
		position[k] = i
	}
	rank := func(v audit.Violation) int {
		if p, ok := position[v.ID]; ok {
			return p
		}
		return len(keys)
	}
	kind := func(v audit.Violation) int {
		switch v.Kind {
		case audit.Integrity, audit.DoubleCompletion:
			return 0
		case audit.StaleWrite:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(vs, func(x, y audit.Violation) int {
		return cmp.Or(cmp.Compare(rank(x), rank(y)), cmp.Compare(kind(x), kind(y)))
	})
	f.Violations = vs
	n := len(j.Stale)
	f.StaleWritesAccepted = &n
	f.FirstViolation = ""
	if len(vs) > 0 {
		f.FirstViolation = vs[0].String()
	}
	return f
}
