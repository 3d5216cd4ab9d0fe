package torturelab

// This file holds what --check linearizable does with a run's history,
// for both locks: every worker process writes its calls to a file of its
// own in historyDir, and after the run the files are merged and checked
// with porcupine against the sequential specification of what the
// workers called (the mailbox's, or the fenced store's).

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/internal/runner/history"
)

// historyDir holds one history file per worker process, in package
// history's words.
const historyDir = "history"

// checkBudget bounds the linearizability check of one run's history. A
// history split by key is small per key, and a default run's takes well
// under a second; the budget is for a history it cannot decide, which
// then says "unknown".
const checkBudget = 30 * time.Second

// historyCheck is what --check and --visualize ask of a run.
type historyCheck struct {
	on   bool
	page string // the page's path, or ""
}

// checked is what torture --check linearizable found.
type checked struct {
	Linearizable any     `json:"linearizable"` // true, false or "unknown"
	Operations   int     `json:"operations"`
	Seconds      float64 `json:"seconds"` // the check's time
}

// checkHistory merges the history files in dir and checks them against
// spec, and draws porcupine's page at page if it is not "".
func checkHistory(dir string, spec history.Spec, page string) (*checked, error) {
	ops, err := history.Merge(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	r := history.Check(spec, ops, checkBudget)
	if page != "" {
		if err := r.Visualize(page); err != nil {
			return nil, fmt.Errorf("write %s: %w", page, err)
		}
	}
	return &checked{Linearizable: r.Verdict.JSON(), Operations: r.Operations, Seconds: r.Seconds}, nil
}
