package historylab

// This file holds the run: the database and its keys, the workers in
// their slots, the kills, and the merged history and its check.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/historylab/calls"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// result is the command's JSON (internal/runner/CONTRACT.md, section
// "fencelab history").
type result struct {
	Command    string `json:"command"`
	Mechanism  string `json:"mechanism"`
	Seed       int    `json:"seed"`
	Processes  int    `json:"processes"`
	Ops        int    `json:"ops"`    // calls per slot
	Kills      int    `json:"kills"`  // workers killed with kill -9 during a call, and replaced
	Pauses     int    `json:"pauses"` // workers stopped (SIGSTOP) during a call for two to three leases
	Operations int    `json:"operations"`
	// Unanswered counts the calls whose answer never came: the killed
	// workers' calls in flight, and calls that failed.
	Unanswered   int      `json:"unanswered"`
	Linearizable any      `json:"linearizable,omitempty"` // true, false or "unknown"; only with --check
	Seconds      *float64 `json:"seconds,omitempty"`      // the check's time
}

// opsPerKill is how many calls of the whole run go with one kill.
const opsPerKill = 200

// kill is one planned kill: the worker in slot is killed as soon as it
// has made after of its calls, during its next one.
type kill struct{ slot, after int }

// planKills draws the kills of a run from its seed: at least one.
func planKills(seed int64, processes, ops int) []kill {
	if ops < 2 {
		return nil // no call of a slot has one after it
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x6b696c6c))
	n := max(1, processes*ops/opsPerKill)
	kills := make([]kill, n)
	for i := range kills {
		kills[i] = kill{slot: r.IntN(processes), after: 1 + r.IntN(ops-1)}
	}
	return kills
}

// leaseMs is the mechanisms' lease: a pause lasts two or three.
const leaseMs = calls.LeaseMs

// opsPerPause is how many calls of the whole run go with one pause.
const opsPerPause = 100

// pause is one planned pause: the worker in slot is stopped during its
// call after After of its calls, between reading its clock and calling,
// for Ms milliseconds: two to three leases, so that its lease ends while
// it stands still and another worker may take its key, and it calls
// with the time it read before, as a stale holder does.
type pause struct {
	slot  int
	After int   `json:"after"`
	Ms    int64 `json:"ms"`
}

// planPauses draws the pauses of a run from its seed: at least one, in
// each slot in the order they come.
func planPauses(seed int64, processes, ops int) []pause {
	if ops < 2 {
		return nil // no call of a slot has one after it
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x7061757365))
	pauses := make([]pause, max(1, processes*ops/opsPerPause))
	for i := range pauses {
		pauses[i] = pause{slot: r.IntN(processes), After: 1 + r.IntN(ops-1), Ms: leaseMs * (2 + r.Int64N(2))}
	}
	slices.SortStableFunc(pauses, func(a, b pause) int { return a.After - b.After })
	return pauses
}

func run(ctx context.Context, env cli.Env, f *flags) (any, error) {
	m, err := calls.Named(f.mechanism)
	if err != nil {
		return nil, err
	}
	keys := make([]string, calls.HotKeys+f.processes*f.ops/4)
	for i := range keys {
		keys[i] = fmt.Sprintf("k-%d", i+1)
	}
	dbPath := filepath.Join(env.Dir, "history.db")
	db, err := sqlitedb.Open(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	err = m.Setup(ctx, db, keys)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}

	res := result{Command: "history", Mechanism: f.mechanism, Seed: f.seed, Processes: f.processes, Ops: f.ops}
	kills := planKills(int64(f.seed), f.processes, f.ops)
	pauses := planPauses(int64(f.seed), f.processes, f.ops)
	s := &slots{start: f.start, dir: env.Dir, base: workerArgs{DB: dbPath, Mechanism: f.mechanism, Seed: int64(f.seed), Keys: keys}, next: f.processes}
	errs := make([]error, f.processes)
	var wg sync.WaitGroup
	for slot := range f.processes {
		var at []int
		for _, k := range kills {
			if k.slot == slot {
				at = append(at, k.after)
			}
		}
		var stops []pause
		for _, p := range pauses {
			if p.slot == slot {
				stops = append(stops, p)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[slot] = s.drive(ctx, slot, f.ops, at, stops)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	res.Kills, res.Pauses = s.kills, s.pauses

	ops, err := history.Merge(filepath.Join(env.Dir, "ops-*.jsonl"))
	if err != nil {
		return nil, err
	}
	if err := writeHistory(filepath.Join(env.Dir, "history.jsonl"), ops); err != nil {
		return nil, err
	}
	res.Operations = len(ops)
	for _, op := range ops {
		if op.Return == 0 || op.Out.Result == history.Unknown {
			res.Unanswered++
		}
	}
	if f.check != "" {
		c := history.Check(m.Spec(), ops, checkBudget)
		res.Linearizable, res.Seconds = c.Verdict.JSON(), &c.Seconds
		if f.visualize != "" {
			if err := c.Visualize(f.visualize); err != nil {
				return nil, fmt.Errorf("write %s: %w", f.visualize, err)
			}
		}
	}
	return res, nil
}

func writeHistory(path string, ops []history.Op) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = history.WriteLines(f, ops)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// slots starts the workers, numbers their processes and counts the kills
// and the pauses.
type slots struct {
	start  worker.Starter
	dir    string
	base   workerArgs
	mu     sync.Mutex
	next   int // the number of the last process started
	kills  int
	pauses int
}

// launch starts a process for slot making its calls [from, to), and
// pausing as those of pauses that fall in them say.
func (s *slots) launch(ctx context.Context, slot, from, to int, pauses []pause) (*worker.Process, error) {
	s.mu.Lock()
	process := slot + 1
	if from > 0 {
		s.next++
		process = s.next
	}
	s.mu.Unlock()
	a := s.base
	a.Process, a.Actor, a.From, a.To = process, fmt.Sprintf("worker-%d", slot+1), from, to
	a.Records = filepath.Join(s.dir, fmt.Sprintf("ops-%d.jsonl", process))
	for _, p := range pauses {
		if p.After >= from && p.After < to {
			a.Pauses = append(a.Pauses, p)
		}
	}
	return s.start(ctx, workerRole, a.encode()...)
}

// drive runs slot's ops calls, killing its worker after each count in
// at and putting a fresh one in its place, which carries the same actor
// name (a worker that came back) and none of its memory, and stopping it
// for a while whenever it asks, as pauses planned.
func (s *slots) drive(ctx context.Context, slot, ops int, at []int, pauses []pause) error {
	p, err := s.launch(ctx, slot, 0, ops, pauses)
	if err != nil {
		return err
	}
	// fail stops the slot's worker, whichever it is now, and names it.
	fail := func(err error) error {
		p.Stop()
		return fmt.Errorf("history worker %d: %w", slot+1, err)
	}
	for {
		var pr progress
		if err := p.Recv(&pr); err != nil {
			return fail(err)
		}
		if pr.PauseMs > 0 {
			if s.stop(ctx, p, pr.PauseMs) {
				s.mu.Lock()
				s.pauses++
				s.mu.Unlock()
			}
			if err := p.Send(progress{Done: pr.Done}); err != nil {
				return fail(err)
			}
			continue
		}
		if pr.Last {
			return p.WaitClean()
		}
		if len(at) > 0 && pr.Done >= at[0] {
			at = at[1:]
			p.Kill()
			s.mu.Lock()
			s.kills++
			s.mu.Unlock()
			if p, err = s.launch(ctx, slot, pr.Done, ops, pauses); err != nil {
				return err
			}
		}
	}
}

// stop pauses the worker p for ms milliseconds (SIGSTOP, then SIGCONT),
// and reports whether it did. It cannot outside Unix, nor for a worker
// that runs inside this process (a test's), which it would stop whole.
func (s *slots) stop(ctx context.Context, p *worker.Process, ms int64) bool {
	if p.Pid == os.Getpid() || lockservicelab.Pause(p.Pid) != nil {
		return false
	}
	select {
	case <-time.After(time.Duration(ms) * time.Millisecond):
	case <-ctx.Done():
	}
	return lockservicelab.Resume(p.Pid) == nil
}
