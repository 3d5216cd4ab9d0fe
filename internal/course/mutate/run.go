package mutate

// This file runs the whole measurement: generate the mutants, sort out
// those that do not build, find their judges and their keys, reuse every
// stored verdict whose key holds, compile the schemata once for the rest,
// judge them a few at a time, and store the verdicts.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// Verdict is what the chapter tests did with a mutant.
type Verdict string

// The verdicts.
const (
	Killed   Verdict = "killed"   // a chapter test failed
	Survived Verdict = "survived" // every chapter test passed, and no excuse
	Excused  Verdict = "excused"  // every test passed; the excuse file says why that is fine
	Invalid  Verdict = "invalid"  // the mutant does not build; not counted
)

// Config says what to mutate and how to run the tests.
type Config struct {
	// Runner runs the chapters' tests; its Jobs bounds how many mutants
	// are judged at once.
	Runner *variant.Runner
	// Tree declares the module's packages; TreeOf(Runner.Root) if nil.
	Tree Tree
	// Packages are the package folders to mutate (internal/mailbox); every
	// package the tree mutates if empty.
	Packages []string
	// Full judges every mutant again, reusing no stored verdict.
	Full bool
	// Sample re-judges that many reused verdicts, chosen at random with
	// Seed (a fresh seed if 0), and reports each that differs.
	Sample int
	Seed   uint64
	// OnResult, if set, sees each verdict as it is reached, from one
	// goroutine at a time.
	OnResult func(Result)
	// Log, if set, receives one line per phase (building, baselines).
	Log io.Writer
}

// Result is one mutant's verdict.
type Result struct {
	ID        string   `json:"id"`
	Package   string   `json:"package"`
	Operator  Operator `json:"operator"`
	Diff      string   `json:"diff"`
	Verdict   Verdict  `json:"verdict"`
	KilledBy  string   `json:"killed_by,omitempty"` // the first failing test and its first failure line
	Reason    string   `json:"reason,omitempty"`    // the excuse, or why the mutant is invalid
	Authority bool     `json:"authority,omitempty"` // it decides who may act
	Reused    bool     `json:"reused,omitempty"`    // the stored verdict, its key unchanged
	Seconds   float64  `json:"seconds"`
}

// measurement is one run of the engine: the mutants, what can judge
// them, and their results so far.
type measurement struct {
	cfg      Config
	root     string
	module   string
	tree     Tree
	dirs     []string
	all      []*Mutant
	results  []Result // by the index of the mutant in all
	runnable []int    // the mutants that build on their own
	todo     []int    // the runnable mutants this run judges
	keys     []string // by the index of the mutant in all
	stored   map[string]stored
	previous map[string]killer // by mutant ID: its killer when last judged, key held or not
	sampled  map[int]Verdict   // a sampled mutant's stored verdict
	fresh    map[int]Verdict   // the verdict judged this run, before excuses
	byPkg    map[string]*packages.Package
	u        universe
	judges   []*judge
	excuses  map[string]Excuse
	rep      *Report
}

// Run measures the chapter tests against every mutant of cfg.Packages.
// An error means the measurement could not be made (the tree does not
// load, the schemata do not build, a chapter fails with no mutant on, the
// run was interrupted); survivors are not errors, they are in the Report.
// The verdicts reached are stored even when the run is interrupted.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	m, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	m.reuse()
	m.pickSample()
	m.cfg.logf("mutate: %d mutants: %d valid, %d verdicts reused, %d to judge", len(m.all), len(m.runnable), len(m.runnable)-len(m.todo), len(m.todo))
	if len(m.todo) > 0 {
		err = m.judgeTodo(ctx)
	}
	if serr := m.saveVerdicts(); serr != nil {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return nil, err
	}
	m.checkSample()
	m.rep.finish(m.results, m.excuses)
	m.rep.Seconds = round(time.Since(start).Seconds())
	return m.rep, nil
}

// judgeTodo builds the schemata of the mutants to judge and judges them.
func (m *measurement) judgeTodo(ctx context.Context) error {
	b, err := m.buildSchemata(ctx)
	if err != nil {
		return err
	}
	return m.judgeAll(ctx, b)
}

// prepare loads the packages, generates their mutants, sets aside those
// that do not build, and finds the judges and the keys of the others.
func prepare(ctx context.Context, cfg Config) (*measurement, error) {
	m, err := newMeasurement(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := m.generateAll(ctx); err != nil {
		return nil, err
	}
	if err := m.findJudges(ctx); err != nil {
		return nil, err
	}
	if err := m.computeKeys(); err != nil {
		return nil, err
	}
	return m, nil
}

// newMeasurement reads the declaration, the packages to mutate and the
// excuses.
func newMeasurement(ctx context.Context, cfg Config) (*measurement, error) {
	m := &measurement{cfg: cfg, root: cfg.Runner.Root, tree: cfg.Tree, byPkg: map[string]*packages.Package{}, rep: &Report{},
		sampled: map[int]Verdict{}, fresh: map[int]Verdict{}}
	var err error
	if m.module, err = cfg.Runner.Module(ctx); err != nil {
		return nil, err
	}
	if m.tree == nil {
		if m.tree, err = TreeOf(m.root); err != nil {
			return nil, err
		}
	}
	if err := m.tree.check(); err != nil {
		return nil, err
	}
	if m.dirs = cfg.Packages; len(m.dirs) == 0 {
		m.dirs = m.tree.Dirs(Mechanism, Runner, Tooling)
	}
	if m.excuses, err = ReadExcuses(m.root); err != nil {
		m.rep.Problems = append(m.rep.Problems, err.Error())
	}
	return m, nil
}

// generateAll loads the packages, generates their mutants, and
// type-checks each one alone: one that does not build is invalid.
func (m *measurement) generateAll(ctx context.Context) error {
	m.cfg.logf("mutate: loading %s", strings.Join(m.dirs, " "))
	pkgs, u, err := load(ctx, m.root, m.dirs)
	if err != nil {
		return err
	}
	m.u = u
	for _, p := range pkgs {
		ms, err := generate(m.root, m.tree, p)
		if err != nil {
			return err
		}
		for _, mu := range ms {
			m.byPkg[mu.Package] = p
		}
		m.all = append(m.all, ms...)
	}
	m.results = make([]Result, len(m.all))
	for i, mu := range m.all {
		m.results[i] = Result{ID: mu.ID, Package: mu.Package, Operator: mu.Operator, Diff: mu.Diff(), Authority: mu.Authority}
		if err := checkAlone(m.byPkg[mu.Package], u, mu); err != nil {
			m.results[i].Verdict, m.results[i].Reason = Invalid, "does not build: "+firstLine(err.Error())
			continue
		}
		m.runnable = append(m.runnable, i)
	}
	return nil
}

// findJudges lists the test packages that can judge the mutants.
func (m *measurement) findJudges(ctx context.Context) error {
	l, err := listPackages(ctx, m.cfg.Runner, m.module, m.tree)
	if err != nil {
		return err
	}
	if m.judges, err = l.judges(); err != nil {
		return err
	}
	return l.testSides(m.judges)
}

// computeKeys computes every runnable mutant's key and reads the stored
// verdicts.
func (m *measurement) computeKeys() error {
	sum, err := moduleSum(m.root)
	if err != nil {
		return err
	}
	m.keys = make([]string, len(m.all))
	for _, i := range m.runnable {
		mu := m.all[i]
		m.keys[i] = key(mu, m.judges, m.excuses[mu.ID], sum)
	}
	onDisk, err := readVerdicts(m.root, m.dirs)
	if err != nil {
		return err
	}
	m.previous = map[string]killer{}
	for id, s := range onDisk {
		if k, ok := s.killer(); ok {
			m.previous[id] = k
		}
	}
	if m.cfg.Full {
		onDisk = map[string]stored{}
	}
	m.stored = onDisk
	return nil
}

// reuse takes the stored verdict of every runnable mutant whose key
// holds, and lists the others to judge.
func (m *measurement) reuse() {
	for _, i := range m.runnable {
		s, ok := m.stored[m.all[i].ID]
		if !ok || s.Key != m.keys[i] {
			m.todo = append(m.todo, i)
			continue
		}
		r := &m.results[i]
		r.Verdict, r.Reused = s.Verdict, true
		if s.Verdict == Killed {
			r.KilledBy = s.killedBy()
		}
		excuse(r, m.excuses, m.rep)
	}
}

// judgeAll judges every mutant to judge in the Runner's pool and applies
// the excuses as verdicts arrive.
func (m *measurement) judgeAll(ctx context.Context, b *build) error {
	var mu sync.Mutex
	err := m.cfg.Runner.Each(ctx, len(m.todo), func(ctx context.Context, k int) error {
		i := m.todo[k]
		mut := m.all[i]
		j := b.judge(ctx, mut, m.judges)
		if _, excused := m.excuses[mut.ID]; excused && ctx.Err() == nil && j.err == nil {
			j = secondOpinion(mut.ID, j, func() judgement { return b.judge(ctx, mut, m.judges) }, m.cfg.logf)
		}
		if ctx.Err() != nil {
			return ctx.Err() // an interrupted judge proves nothing
		}
		if j.err != nil {
			return j.err
		}
		mu.Lock()
		defer mu.Unlock()
		r := &m.results[i]
		r.Verdict, r.KilledBy, r.Reason, r.Seconds, r.Reused = j.Verdict, j.KilledBy, j.Reason, j.Seconds, false
		m.fresh[i] = j.Verdict
		// A sampled verdict that holds keeps its stored line as it is: which
		// test kills first may vary, and a sample must leave the verdict
		// files as it found them unless a verdict changed.
		s, ok := m.stored[r.ID]
		held := ok && m.isSampled(i) && s.Verdict == r.Verdict && s.Key == m.keys[i]
		if !held && (r.Verdict == Killed || r.Verdict == Survived) {
			m.stored[r.ID] = stored{Verdict: r.Verdict, Key: m.keys[i], Killer: killerToken(r.KilledBy)}
		}
		excuse(r, m.excuses, m.rep)
		if m.cfg.OnResult != nil {
			m.cfg.OnResult(*r)
		}
		if len(m.fresh)%saveEvery == 0 {
			// A long run killed outright keeps most of what it judged.
			return m.saveVerdicts()
		}
		return nil
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("mutate: interrupted: %w", err)
	case err != nil:
		return err
	}
	return nil
}

// isSampled reports whether mutant i was judged again as one of the
// sample of reused verdicts.
func (m *measurement) isSampled(i int) bool {
	_, ok := m.sampled[i]
	return ok
}

// saveEvery is how many verdicts a run reaches between two writes of the
// verdict files.
const saveEvery = 50

// saveVerdicts writes the verdict file of every package measured: the
// verdict of each of its runnable mutants that has one, reused, new, or
// stale and not judged again yet (a run interrupted, or saving on the
// way). A stale line is never reused, since its key differs, but it
// names the test that killed the mutant last time, which the next
// judging runs first; dropping it would make that judging run every
// judge whole.
func (m *measurement) saveVerdicts() error {
	byPkg := map[string]map[string]stored{}
	for _, d := range m.dirs {
		byPkg[d] = map[string]stored{}
	}
	for _, i := range m.runnable {
		r := m.results[i]
		if s, ok := m.stored[r.ID]; ok && byPkg[r.Package] != nil {
			byPkg[r.Package][r.ID] = s
		}
	}
	var errs []error
	for _, d := range sortedKeys(byPkg) {
		errs = append(errs, writeVerdicts(m.root, d, byPkg[d]))
	}
	return errors.Join(errs...)
}

func (cfg Config) logf(format string, args ...any) {
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, format+"\n", args...)
	}
}

// secondOpinion judges once more a mutant that a judge killed although
// its excuse says no test can: a test that failed by chance under the
// run's load (a script that races the clock) must not undo an excuse
// written after a careful reading. Only a second kill is believed. A
// second judging that lets the mutant live stands, and the log names the
// judge that failed once.
func secondOpinion(id string, first judgement, again func() judgement, logf func(string, ...any)) judgement {
	if first.Verdict != Killed {
		return first
	}
	second := again()
	if second.err == nil && second.Verdict != Killed {
		logf("mutate: %s is excused and was killed by %s, then lived when judged again: the kill is taken for a chance failure", id, first.KilledBy)
	}
	second.Seconds += first.Seconds
	return second
}

// excuse turns a survivor with a valid excuse into Excused. An excuse
// that cannot apply (an authority mutant called unreachable) is a problem
// and the mutant stays a survivor.
func excuse(r *Result, excuses map[string]Excuse, rep *Report) {
	e, ok := excuses[r.ID]
	if !ok || r.Verdict != Survived {
		return
	}
	if e.Authority(r) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s decides authority and cannot be excused as unreachable: kill it with a test", e.Where(), r.ID))
		return
	}
	r.Verdict, r.Reason = Excused, string(e.Kind)+": "+e.Reason
}

// Authority reports whether e is an unreachable excuse for an authority mutant.
func (e Excuse) Authority(r *Result) bool { return e.Kind == Unreachable && r.Authority }

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func round(s float64) float64 { return float64(int64(s*10+0.5)) / 10 }

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
