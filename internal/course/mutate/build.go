package mutate

// This file builds the judges once with every switchable mutant to judge
// inside (the schemata) and checks that they pass with none switched on:
// write the schemata, compile the judges, run their baselines.

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// build is the shared schemata build and what judging needs of it.
type build struct {
	cfg      Config
	root     string
	shared   *variant.Shared
	nums     map[*Mutant]int    // each switchable mutant's number
	baseline map[string]float64 // judge name -> seconds its tests took with no mutant on
	judges   map[string]*judge  // by name
	// lean is set when the judges ran no baseline (few mutants to judge):
	// each kill is then confirmed by the killing test passing with no
	// mutant on, and every run gets leanTimeout.
	lean    bool
	killers killers
	// previous maps a mutant's ID to the test that killed it when it was
	// last judged, read from its stored verdict even when the key no
	// longer holds: after a change to go.mod or to a judge's tests, the
	// same test usually kills it again, in one run of that test alone.
	previous map[string]killer
}

// leanBelow is how few mutants to judge make baselines not worth their
// cost: a baseline runs every needed judge whole (chapter 9 alone takes
// half a minute), where confirming each kill runs one test.
const leanBelow = 40

// leanTimeout bounds a run of a judge that ran no baseline: far above
// any chapter's time, so only a mutant that hangs reaches it.
const leanTimeout = 3 * time.Minute

// buildSchemata writes the schemata of the mutants to judge, builds every
// judge one of them needs, and runs each once with no mutant on.
func (m *measurement) buildSchemata(ctx context.Context) (*build, error) {
	b := &build{cfg: m.cfg, root: m.root, nums: map[*Mutant]int{}, baseline: map[string]float64{}, judges: map[string]*judge{}}
	for _, j := range m.judges {
		b.judges[j.Name] = j
	}
	b.previous = m.previous
	schemas, err := m.writeSchemata(b.nums)
	if err != nil {
		return nil, err
	}
	need := m.judgesNeeded()
	if len(need) == 0 {
		return b, nil
	}
	m.cfg.logf("mutate: building %d test packages with %d mutants switchable inside", len(need), len(b.nums))
	if b.shared, err = m.cfg.Runner.BuildShared(ctx, schemas, need); err != nil {
		return nil, fmt.Errorf("mutate: the schemata build failed: %w", err)
	}
	if b.lean = len(m.todo) < leanBelow; b.lean {
		m.cfg.logf("mutate: %d mutants to judge: no baselines; each kill is confirmed with no mutant on", len(m.todo))
		return b, nil
	}
	if err := b.runBaselines(ctx, need); err != nil {
		return nil, err
	}
	return b, nil
}

// writeSchemata numbers the switchable mutants to judge (constants that
// can become variables included) in nums and returns the schema of every
// file they mutate, and the types file of each package whose lazy
// mutants need one, each package type-checked with its switch file.
func (m *measurement) writeSchemata(nums map[*Mutant]int) ([]variant.Schema, error) {
	var candidates []*Mutant
	for _, i := range m.todo {
		candidates = append(candidates, m.all[i])
	}
	if err := switchConstants(m.root, m.byPkg, m.u, candidates); err != nil {
		return nil, err
	}
	byFile := map[string][]*Mutant{}
	for _, mu := range candidates {
		if mu.schema {
			nums[mu] = len(nums) + 1
			byFile[mu.File] = append(byFile[mu.File], mu)
		}
	}
	var schemas []variant.Schema
	for _, pkgDir := range packagesOf(byFile) {
		s, err := m.packageSchemata(pkgDir, byFile, nums)
		if err != nil {
			return nil, err
		}
		schemas = append(schemas, s...)
	}
	return schemas, nil
}

// packageSchemata returns the schemata of one package's files in byFile,
// its types file if needed, after type-checking them together.
func (m *measurement) packageSchemata(pkgDir string, byFile map[string][]*Mutant, nums map[*Mutant]int) ([]variant.Schema, error) {
	pkg := m.byPkg[pkgDir]
	srcs := map[string]string{}
	var files []string
	var all []*Mutant
	for _, file := range sortedKeys(byFile) {
		if path.Dir(file) != pkgDir {
			continue
		}
		abs := filepath.Join(m.root, filepath.FromSlash(file))
		src, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
		s, err := schemaSource(src, byFile[file], nums)
		if err != nil {
			return nil, fmt.Errorf("mutate: schemata of %s: %w", file, err)
		}
		srcs[abs], files, all = s, append(files, file), append(all, byFile[file]...)
	}
	extra := []string{variant.SwitchSource(pkg.Name)}
	types := typesFile(pkg.Name, all)
	if types != "" {
		extra = append(extra, types)
	}
	if err := typecheck(pkg, m.u, srcs, extra...); err != nil {
		// Every mutant type-checked on its own, so this is the
		// generator's fault, never the tree's.
		return nil, fmt.Errorf("mutate: the schemata of %s do not compile: %w", pkgDir, err)
	}
	var out []variant.Schema
	for _, file := range files {
		abs := filepath.Join(m.root, filepath.FromSlash(file))
		out = append(out, variant.Schema{File: file, Package: pkg.Name, Source: []byte(srcs[abs])})
	}
	if types != "" {
		out = append(out, variant.Schema{File: pkgDir + "/" + TypesFileName, Package: pkg.Name, Source: []byte(types)})
	}
	return out, nil
}

// judgesNeeded returns, in name order, every judge that uses the package
// of a mutant to judge.
func (m *measurement) judgesNeeded() []variant.Chapter {
	pkgs := map[string]bool{}
	for _, i := range m.todo {
		pkgs[m.all[i].Package] = true
	}
	var out []variant.Chapter
	for _, j := range m.judges {
		for p := range pkgs {
			if j.uses[p] != 0 {
				out = append(out, j.Chapter)
				break
			}
		}
	}
	return out
}

// runBaselines runs every built judge with no mutant switched on: each
// must pass, or no verdict would mean anything. The time each takes,
// measured while the others run as every mutant will be, sets its timeout.
func (b *build) runBaselines(ctx context.Context, judges []variant.Chapter) error {
	b.cfg.logf("mutate: running the %d test packages with no mutant on", len(judges))
	start := time.Now()
	var (
		mu     sync.Mutex
		failed []string
	)
	err := b.cfg.Runner.Each(ctx, len(judges), func(ctx context.Context, i int) error {
		name := judges[i].Name
		began := time.Now()
		out, err := b.run(ctx, b.judges[name], 0, 5*time.Minute)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if out.failed {
			failed = append(failed, fmt.Sprintf("%s fails with no mutant switched on: %s", name, out.by))
		}
		b.baseline[name] = time.Since(began).Seconds()
		return nil
	})
	if err != nil {
		return fmt.Errorf("mutate: interrupted: %w", err)
	}
	if len(failed) > 0 {
		sort.Strings(failed)
		return fmt.Errorf("mutate: %s", strings.Join(failed, "; "))
	}
	var took []string
	for _, j := range judges {
		took = append(took, fmt.Sprintf("%s %.1f s", j.Name, b.baseline[j.Name]))
	}
	b.cfg.logf("mutate: the test packages pass with no mutant on (%.0f s: %s); judging the mutants", time.Since(start).Seconds(), strings.Join(took, ", "))
	return nil
}

// packagesOf lists the package folders of the files in byFile.
func packagesOf(byFile map[string][]*Mutant) []string {
	seen := map[string]bool{}
	for file := range byFile {
		seen[path.Dir(file)] = true
	}
	return sortedKeys(seen)
}

// timeout bounds one run of a judge: ten times its baseline, measured in
// the same run on the same machine, so only a mutant that hangs reaches it
// (a deleted Unlock deadlocks; a hang is a failure the tests noticed).
func (b *build) timeout(judge string) time.Duration {
	if b.lean {
		return leanTimeout
	}
	return max(5*time.Second, time.Duration(10*b.baseline[judge]*float64(time.Second)))
}
