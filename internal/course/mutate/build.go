package mutate

// This file builds the chapters once with every switchable mutant inside
// (the schemata) and checks that they pass with none switched on: write
// the schemata, compile the chapters that can kill a mutant, run their
// baselines.

import (
	"context"
	"fmt"
	"os"
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
	nums     map[*Mutant]int     // each switchable mutant's number
	baseline map[string]float64  // chapter name -> seconds its tests took with no mutant on
	chapters map[string]*chapter // by name
	killers  killers
}

// buildSchemata writes the schemata of the runnable mutants, builds every
// chapter that can kill one, and runs each built chapter once with no
// mutant on.
func (m *measurement) buildSchemata(ctx context.Context) (*build, error) {
	b := &build{cfg: m.cfg, root: m.root, nums: map[*Mutant]int{}, baseline: map[string]float64{}, chapters: map[string]*chapter{}}
	for _, ch := range m.chapters {
		b.chapters[ch.Name] = ch
	}
	schemas, err := m.writeSchemata(b.nums)
	if err != nil {
		return nil, err
	}
	need := m.chaptersFor(b.nums)
	if len(need) == 0 {
		return b, nil
	}
	m.cfg.logf("mutate: building %d chapters with %d mutants switchable inside", len(need), len(b.nums))
	if b.shared, err = m.cfg.Runner.BuildShared(ctx, schemas, need); err != nil {
		return nil, fmt.Errorf("mutate: the schemata build failed: %w", err)
	}
	if err := b.runBaselines(ctx, need); err != nil {
		return nil, err
	}
	return b, nil
}

// writeSchemata numbers the switchable mutants (constants that can become
// variables included) in nums and returns the schema of every file they
// mutate, each package's type-checked with its switch file.
func (m *measurement) writeSchemata(nums map[*Mutant]int) ([]variant.Schema, error) {
	var candidates []*Mutant
	for _, i := range m.runnable {
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
		pkg := m.byPkg[pkgDir]
		srcs := map[string]string{}
		var files []string
		for _, file := range sortedKeys(byFile) {
			if filepath.ToSlash(filepath.Dir(file)) != pkgDir {
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
			srcs[abs] = s
			files = append(files, file)
		}
		if err := typecheck(pkg, m.u, srcs, variant.SwitchSource(pkg.Name)); err != nil {
			// Every mutant type-checked on its own, so this is the
			// generator's fault, never the tree's.
			return nil, fmt.Errorf("mutate: the schemata of %s do not compile: %w", pkgDir, err)
		}
		for _, file := range files {
			abs := filepath.Join(m.root, filepath.FromSlash(file))
			schemas = append(schemas, variant.Schema{File: file, Package: pkg.Name, Source: []byte(srcs[abs])})
		}
	}
	return schemas, nil
}

// chaptersFor returns, in name order, every chapter that a switchable
// mutant's package reaches.
func (m *measurement) chaptersFor(nums map[*Mutant]int) []variant.Chapter {
	need := map[string]variant.Chapter{}
	for mu := range nums {
		for _, ch := range m.chapters {
			if ch.Uses[mu.Package] {
				need[ch.Name] = ch.Chapter
			}
		}
	}
	out := make([]variant.Chapter, 0, len(need))
	for _, name := range sortedKeys(need) {
		out = append(out, need[name])
	}
	return out
}

// runBaselines runs every built chapter with no mutant switched on: each
// must pass, or no verdict would mean anything. The time each takes,
// measured while the others run as every mutant will be, sets its timeout.
func (b *build) runBaselines(ctx context.Context, chapters []variant.Chapter) error {
	b.cfg.logf("mutate: running the %d chapters with no mutant on", len(chapters))
	start := time.Now()
	var (
		mu     sync.Mutex
		failed []string
	)
	err := b.cfg.Runner.Each(ctx, len(chapters), func(ctx context.Context, i int) error {
		name := chapters[i].Name
		began := time.Now()
		out, err := b.run(ctx, b.chapters[name], 0, 5*time.Minute)
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
	b.cfg.logf("mutate: the chapters pass with no mutant on (%.0f s); judging the mutants", time.Since(start).Seconds())
	return nil
}

// packagesOf lists the package folders of the files in byFile.
func packagesOf(byFile map[string][]*Mutant) []string {
	seen := map[string]bool{}
	for file := range byFile {
		seen[filepath.ToSlash(filepath.Dir(file))] = true
	}
	return sortedKeys(seen)
}

// timeout bounds one run of a chapter: ten times its baseline, measured in
// the same run on the same machine, so only a mutant that hangs reaches it
// (a deleted Unlock deadlocks; a hang is a failure the tests noticed).
func (b *build) timeout(chapter string) time.Duration {
	return max(5*time.Second, time.Duration(10*b.baseline[chapter]*float64(time.Second)))
}
