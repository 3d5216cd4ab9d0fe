package mutate

// This file runs the whole measurement: generate, sort out the mutants
// that do not build, compile the schemata once per chapter, then judge
// every mutant against the chapters that can kill it, a few at a time.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	// Packages are the package folders to mutate (internal/mailbox); every
	// mechanism package if empty.
	Packages []string
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
	Seconds   float64  `json:"seconds"`
}

// measurement is one run of the engine: the mutants, what can judge
// them, and their results so far.
type measurement struct {
	cfg      Config
	root     string
	all      []*Mutant
	results  []Result // by the index of the mutant in all
	runnable []int    // the mutants that build on their own
	byPkg    map[string]*packages.Package
	u        universe
	chapters []*chapter
	excuses  map[string]Excuse
	rep      *Report
}

// Run measures the chapter tests against every mutant of cfg.Packages.
// An error means the measurement could not be made (the tree does not
// load, the schemata do not build, a chapter fails with no mutant on, the
// run was interrupted); survivors are not errors, they are in the Report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	m, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	b, err := m.buildSchemata(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.judgeAll(ctx, b); err != nil {
		return nil, err
	}
	m.rep.finish(m.results, m.excuses, m.all)
	m.rep.Seconds = round(time.Since(start).Seconds())
	return m.rep, nil
}

// prepare loads the packages, generates their mutants, finds the chapters
// that can judge them and sets aside the mutants that do not build.
func prepare(ctx context.Context, cfg Config) (*measurement, error) {
	root := cfg.Runner.Root
	module, err := cfg.Runner.Module(ctx)
	if err != nil {
		return nil, err
	}
	dirs := cfg.Packages
	if len(dirs) == 0 {
		if dirs, err = MechanismPackages(root); err != nil {
			return nil, err
		}
	}
	cfg.logf("mutate: loading %s", strings.Join(dirs, " "))
	pkgs, u, err := load(ctx, root, dirs)
	if err != nil {
		return nil, err
	}
	m := &measurement{cfg: cfg, root: root, u: u, byPkg: map[string]*packages.Package{}, rep: &Report{}}
	if m.excuses, err = ReadExcuses(root); err != nil {
		m.rep.Problems = append(m.rep.Problems, err.Error())
	}
	for _, p := range pkgs {
		ms := generate(root, p)
		for _, mu := range ms {
			m.byPkg[mu.Package] = p
		}
		m.all = append(m.all, ms...)
	}
	cfg.logf("mutate: %d mutants in %d packages", len(m.all), len(pkgs))
	if m.chapters, err = findChapters(ctx, cfg.Runner, module); err != nil {
		return nil, err
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
	return m, nil
}

// judgeAll judges every runnable mutant in the Runner's pool and applies
// the excuses as verdicts arrive.
func (m *measurement) judgeAll(ctx context.Context, b *build) error {
	var mu sync.Mutex
	err := m.cfg.Runner.Each(ctx, len(m.runnable), func(ctx context.Context, k int) error {
		i := m.runnable[k]
		j := b.judge(ctx, m.all[i], m.chapters)
		if ctx.Err() != nil {
			return ctx.Err() // an interrupted judge proves nothing
		}
		mu.Lock()
		defer mu.Unlock()
		r := &m.results[i]
		r.Verdict, r.KilledBy, r.Reason, r.Seconds = j.Verdict, j.KilledBy, j.Reason, j.Seconds
		excuse(r, m.excuses, m.rep)
		if m.cfg.OnResult != nil {
			m.cfg.OnResult(*r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mutate: interrupted: %w", err)
	}
	return nil
}

func (cfg Config) logf(format string, args ...any) {
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, format+"\n", args...)
	}
}

// checkAlone type-checks m's package with m applied on its own.
func checkAlone(pkg *packages.Package, u universe, m *Mutant) error {
	abs := filepath.Join(filepath.Dir(pkg.CompiledGoFiles[0]), filepath.Base(m.File))
	src, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	return typecheck(pkg, u, map[string]string{abs: apply(src, m)})
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
