package audit

// This file holds the audit of the torture run with an etcd lock
// (torture --lock etcd): the authority came from etcd, the effects and
// completions went to a fenced store, and the store's own log of what it
// accepted, in commit order, is checked against itself and against the
// workers' records.

import "github.com/fencelab/fencelab/internal/fencedstore"

// Destination is the fenced store as the audit sees it, after the run.
type Destination struct {
	// Keys are the messages the run added, in order.
	Keys []string
	// Resources are the committed rows at the end, by key.
	Resources map[string]fencedstore.Resource
	// Log is every accepted write and completion, in commit order.
	Log []fencedstore.Entry
	// Integrity is what PRAGMA integrity_check answered.
	Integrity string
}

// AuditStore checks the fenced store d against itself and the records in
// logs: no two grants share a token (from the records' claims), no key took a write
// or a completion below a token it had already accepted, no key was
// completed twice, and every key ended completed.
func AuditStore(d Destination, logs []Log) Findings {
	a := &audit{l: Ledger{Messages: d.Keys, Integrity: d.Integrity}, completes: map[string][]said{}, parked: map[string][]said{}}
	if d.Integrity != "ok" {
		a.add(Integrity, "", "PRAGMA integrity_check answered %q", d.Integrity)
	}
	// An etcd lock's token is the revision its holder's key was created
	// at, and a key queued before a lost answer can be granted later: a
	// process's tokens need not grow from one message to the next, but no
	// two grants share one.
	a.readLogs(logs, false)
	highest := map[string]fencedstore.Entry{} // the accepted entry with the greatest token so far, by key
	completed := map[string]fencedstore.Entry{}
	for _, e := range d.Log {
		if top, ok := highest[e.Key]; ok && e.Token < top.Token {
			kind := StaleWrite
			if e.Op == "complete" {
				kind = StaleComplete
			}
			a.add(kind, e.Key, "%s: the store accepted %s's %s with token %d after it had accepted %s's %s with token %d",
				e.Key, e.Writer, e.Op, e.Token, top.Writer, top.Op, top.Token)
		}
		if top, ok := highest[e.Key]; !ok || e.Token > top.Token {
			highest[e.Key] = e
		}
		if e.Op == "complete" {
			if first, ok := completed[e.Key]; ok {
				a.add(DoubleCompletion, e.Key, "%s was completed twice: by %s with token %d, and by %s with token %d",
					e.Key, first.Writer, first.Token, e.Writer, e.Token)
			} else {
				completed[e.Key] = e
			}
		}
	}
	for _, k := range d.Keys {
		r, ok := d.Resources[k]
		switch {
		case !ok:
			a.add(Lost, k, "%s is gone from the store", k)
		case r.DoneToken == 0:
			a.add(Unfinished, k, "%s was never completed: the run ended before every message was", k)
		}
	}
	f := a.findings()
	f.StaleWritesAccepted = new(int)
	for _, v := range f.Violations {
		if v.Kind == StaleWrite {
			*f.StaleWritesAccepted++
		}
	}
	return f
}
