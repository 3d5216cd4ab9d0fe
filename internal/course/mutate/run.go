package mutate

// This file runs the whole measurement: generate, sort out the mutants
// that do not build, compile the schemata once per chapter, then run every
// mutant against the chapters that can kill it, a few at a time.

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
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
	Root     string   // the module root
	Packages []string // package folders to mutate (internal/mailbox); all mechanism packages if empty
	Go       string   // the go command; "go" if empty
	Jobs     int      // test processes at once; one more than the CPUs if zero
	Env      []string // added to every go command and test process
	// OnResult, if set, sees each verdict as it is reached, from one
	// goroutine at a time.
	OnResult func(Result)
	// Log, if set, receives one line per phase (building, baselines).
	Log io.Writer

	test2json []string // the command that turns test output into events; see findTest2JSON
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

// Run measures the chapter tests against every mutant of cfg.Packages.
// An error means the measurement could not be made (the tree does not
// load, the schemata do not build, a chapter fails with no mutant on);
// survivors are not errors, they are in the Report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	cfg = cfg.withDefaults()
	cfg.test2json = findTest2JSON(ctx, cfg)
	goMod, err := os.ReadFile(filepath.Join(cfg.Root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	module := modfile.ModulePath(goMod)
	dirs := cfg.Packages
	if len(dirs) == 0 {
		if dirs, err = MechanismPackages(cfg.Root); err != nil {
			return nil, err
		}
	}
	cfg.logf("mutate: loading %s", strings.Join(dirs, " "))
	pkgs, u, err := load(ctx, cfg.Root, dirs)
	if err != nil {
		return nil, err
	}

	rep := &Report{}
	excuses, err := ReadExcuses(cfg.Root)
	if err != nil {
		rep.Problems = append(rep.Problems, err.Error())
	}
	var all []*Mutant
	byPkg := map[string]*packages.Package{}
	for _, p := range pkgs {
		ms := generate(cfg.Root, p)
		for _, m := range ms {
			byPkg[m.Package] = p
		}
		all = append(all, ms...)
	}
	cfg.logf("mutate: %d mutants in %d packages", len(all), len(pkgs))

	chapters, err := findChapters(ctx, cfg.Go, cfg.Root, module)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(all))
	var runnable []int
	for i, m := range all {
		results[i] = Result{ID: m.ID, Package: m.Package, Operator: m.Operator, Diff: m.Diff(), Authority: m.Authority}
		if err := checkAlone(byPkg[m.Package], u, m); err != nil {
			results[i].Verdict, results[i].Reason = Invalid, "does not build: "+firstLine(err.Error())
			continue
		}
		runnable = append(runnable, i)
	}

	b, err := buildSchemata(ctx, cfg, all, runnable, byPkg, u, chapters)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(b.dir)

	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.Jobs, max(len(runnable), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := b.judge(ctx, cfg, all[i], chapters)
				mu.Lock()
				results[i].Verdict, results[i].KilledBy, results[i].Reason = r.Verdict, r.KilledBy, r.Reason
				results[i].Seconds = r.Seconds
				excuse(&results[i], excuses, rep)
				if cfg.OnResult != nil {
					cfg.OnResult(results[i])
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, i := range runnable {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mutate: interrupted: %w", err)
	}
	rep.finish(results, excuses, all)
	rep.Seconds = round(time.Since(start).Seconds())
	return rep, nil
}

func (cfg Config) withDefaults() Config {
	if cfg.Go == "" {
		cfg.Go = "go"
	}
	if cfg.Jobs <= 0 {
		// A chapter's tests wait on the disk and on their child
		// processes part of the time: with one job per CPU a two-core
		// machine stayed 30% idle (442 s), with three jobs 14% (387 s).
		cfg.Jobs = runtime.NumCPU() + 1
	}
	if abs, err := filepath.Abs(cfg.Root); err == nil {
		cfg.Root = abs
	}
	return cfg
}

// findTest2JSON returns the test2json program to run directly. `go tool
// test2json` starts the go command before every test run, which on a
// small machine costs more than a chapter's in-process tests; `go tool -n`
// builds the tool once if needed and names it. If that fails, every run
// goes through the go command after all.
func findTest2JSON(ctx context.Context, cfg Config) []string {
	cmd := exec.CommandContext(ctx, cfg.Go, "tool", "-n", "test2json")
	cmd.Dir = cfg.Root
	cmd.Env = append(os.Environ(), cfg.Env...)
	if out, err := cmd.Output(); err == nil {
		if fields := strings.Fields(string(out)); len(fields) == 1 {
			if _, err := os.Stat(fields[0]); err == nil {
				return fields
			}
		}
	}
	return []string{cfg.Go, "tool", "test2json"}
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
