package mutate

// This file builds the chapters once with every switchable mutant inside
// (the schemata), checks that they pass with none switched on, and judges
// each mutant: by running the shared build with its switch on, or, for a
// mutant no switch can reach, by building the chapters with it alone.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/fencelab/fencelab/internal/course/schemata"
)

// build is the shared schemata build and what judging needs of it.
type build struct {
	dir      string              // scratch directory, removed after the run
	nums     map[*Mutant]int     // each switchable mutant's number
	bins     map[string]string   // chapter name -> its test binary
	baseline map[string]float64  // chapter name -> seconds its tests took with no mutant on
	chapters map[string]*chapter // by name
	pkgs     map[string]*packages.Package
	killers  killers
}

// buildSchemata writes the schemata of the runnable mutants, type-checks
// them, builds every chapter that can kill one, and runs each built
// chapter once with no mutant on.
func buildSchemata(ctx context.Context, cfg Config, all []*Mutant, runnable []int, byPkg map[string]*packages.Package, u universe, chapters []*chapter) (*build, error) {
	dir, err := os.MkdirTemp("", "drill-mutate-")
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	b := &build{dir: dir, nums: map[*Mutant]int{}, bins: map[string]string{}, baseline: map[string]float64{},
		chapters: map[string]*chapter{}, pkgs: byPkg}
	for _, ch := range chapters {
		b.chapters[ch.Name] = ch
	}
	fail := func(err error) (*build, error) {
		os.RemoveAll(dir)
		return nil, err
	}

	// Group the switchable mutants by package and file, constants that
	// can become variables included.
	var candidates []*Mutant
	for _, i := range runnable {
		candidates = append(candidates, all[i])
	}
	if err := switchConstants(cfg.Root, byPkg, u, candidates); err != nil {
		return fail(err)
	}
	byFile := map[string][]*Mutant{}
	for _, i := range runnable {
		m := all[i]
		if m.schema {
			b.nums[m] = len(b.nums) + 1
			byFile[m.File] = append(byFile[m.File], m)
		}
	}
	replace := map[string]string{} // absolute original -> absolute schema copy
	for _, pkgDir := range packagesOf(byFile) {
		pkg := byPkg[pkgDir]
		srcs := map[string]string{}
		for _, file := range sortedKeys(byFile) {
			if path.Dir(file) != pkgDir {
				continue
			}
			abs := filepath.Join(cfg.Root, filepath.FromSlash(file))
			src, err := os.ReadFile(abs)
			if err != nil {
				return fail(fmt.Errorf("mutate: %w", err))
			}
			s, err := schemaSource(src, byFile[file], b.nums)
			if err != nil {
				return fail(fmt.Errorf("mutate: schemata of %s: %w", file, err))
			}
			srcs[abs] = s
		}
		sw := schemata.SwitchSource(pkg.Name)
		if err := typecheck(pkg, u, srcs, sw); err != nil {
			// Every mutant type-checked on its own, so this is the
			// generator's fault, never the tree's.
			return fail(fmt.Errorf("mutate: the schemata of %s do not compile: %w", pkgDir, err))
		}
		for abs, s := range srcs {
			copyPath := filepath.Join(dir, "schema", strings.ReplaceAll(strings.TrimPrefix(abs, cfg.Root), string(filepath.Separator), "_"))
			if err := schemata.WriteFile(copyPath, s); err != nil {
				return fail(err)
			}
			replace[abs] = copyPath
		}
		swPath := filepath.Join(dir, "schema", strings.ReplaceAll(pkgDir, "/", "_")+"_switch.go")
		if err := schemata.WriteFile(swPath, sw); err != nil {
			return fail(err)
		}
		replace[filepath.Join(cfg.Root, filepath.FromSlash(pkgDir), schemata.SwitchFileName)] = swPath
	}

	// Build every chapter that a switchable mutant's package reaches.
	need := map[string]bool{}
	for m := range b.nums {
		for _, ch := range chapters {
			if ch.Uses[m.Package] {
				need[ch.Name] = true
			}
		}
	}
	if len(need) == 0 {
		return b, nil
	}
	overlay := filepath.Join(dir, "schema.json")
	if err := schemata.WriteOverlay(overlay, replace); err != nil {
		return fail(err)
	}
	names := sortedKeys(need)
	cfg.logf("mutate: building %d chapters with %d mutants switchable inside", len(names), len(b.nums))
	args := []string{"test", "-c", "-o", filepath.Join(dir, "bin") + string(filepath.Separator), "-overlay", overlay}
	for _, name := range names {
		args = append(args, b.chapters[name].ImportPath)
	}
	cmd := exec.CommandContext(ctx, cfg.Go, args...)
	cmd.Dir = cfg.Root
	cmd.Env = append(os.Environ(), cfg.Env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("mutate: the schemata build failed: %w\n%s", err, firstLines(string(out), 20)))
	}
	for _, name := range names {
		bin := filepath.Join(dir, "bin", name+".test")
		if _, err := os.Stat(bin); err != nil {
			return fail(fmt.Errorf("mutate: the schemata build made no test binary for %s: %w", name, err))
		}
		b.bins[name] = bin
	}

	// Every chapter must pass with no mutant switched on, or no verdict
	// would mean anything.
	cfg.logf("mutate: running the %d chapters with no mutant on, %d at a time", len(names), cfg.Jobs)
	start := time.Now()
	var (
		mu     sync.Mutex
		failed []string
		wg     sync.WaitGroup
		slots  = make(chan struct{}, cfg.Jobs)
	)
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			began := time.Now()
			out := runBinary(ctx, cfg, b.chapters[name], b.bins[name], 0, 5*time.Minute)
			mu.Lock()
			defer mu.Unlock()
			if out.failed {
				failed = append(failed, fmt.Sprintf("%s fails with no mutant switched on: %s", name, out.by))
			}
			// Measured while other chapters run, as every mutant will be.
			b.baseline[name] = time.Since(began).Seconds()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fail(fmt.Errorf("mutate: interrupted: %w", err))
	}
	if len(failed) > 0 {
		sort.Strings(failed)
		return fail(fmt.Errorf("mutate: %s", strings.Join(failed, "; ")))
	}
	cfg.logf("mutate: the chapters pass with no mutant on (%.0f s); judging the mutants, %d at a time", time.Since(start).Seconds(), cfg.Jobs)
	return b, nil
}

// packagesOf lists the package folders of the files in byFile.
func packagesOf(byFile map[string][]*Mutant) []string {
	seen := map[string]bool{}
	for file := range byFile {
		seen[path.Dir(file)] = true
	}
	return sortedKeys(seen)
}

// judgement is one mutant's verdict before excuses.
type judgement struct {
	Verdict  Verdict
	KilledBy string
	Reason   string
	Seconds  float64
}

// judge runs m against the chapters that can kill it, quickest first,
// and stops at the first that does. The test that last killed a mutant of
// the same function runs alone before them: neighbouring mutants break the
// same property, so it usually kills this one too, in a fraction of its
// chapter's time.
func (b *build) judge(ctx context.Context, cfg Config, m *Mutant, chapters []*chapter) judgement {
	start := time.Now()
	var mine []*chapter
	for _, ch := range chapters {
		if ch.Uses[m.Package] {
			mine = append(mine, ch)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return b.baseline[mine[i].Name] < b.baseline[mine[j].Name] })
	j := judgement{Verdict: Survived}
	if len(mine) == 0 {
		j.Reason = "no chapter's tests use " + m.Package
	}
	if num, ok := b.nums[m]; ok {
		if k, ok := b.killers.last(m); ok {
			ch := b.chapters[k.chapter]
			if out := runTests(ctx, cfg, ch, b.bins[ch.Name], num, b.timeout(ch.Name), "-test.run=^"+regexp.QuoteMeta(k.test)+"$"); out.failed {
				j.Verdict, j.KilledBy = Killed, ch.Name+": "+out.by
			}
		}
		for _, ch := range mine {
			if j.Verdict == Killed {
				break
			}
			if out := runBinary(ctx, cfg, ch, b.bins[ch.Name], num, b.timeout(ch.Name)); out.failed {
				j.Verdict, j.KilledBy = Killed, ch.Name+": "+out.by
				b.killers.record(m, ch.Name, out.by)
			}
		}
	} else if len(mine) > 0 {
		j = b.judgeAlone(ctx, cfg, m, mine)
	}
	j.Seconds = round(time.Since(start).Seconds())
	return j
}

// killers remembers, per mutated function, the chapter and top-level
// test that last killed one of its mutants. Judges run side by side, so
// it is guarded.
type killers struct {
	mu   sync.Mutex
	byFn map[string]killer
}

// killer is one chapter's top-level test.
type killer struct{ chapter, test string }

func (k *killers) last(m *Mutant) (killer, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	got, ok := k.byFn[m.Package+"."+m.Func]
	return got, ok
}

// record notes that the test named at the start of by (as outcome.by
// gives it: "TestName/sub: why") in chapter killed m.
func (k *killers) record(m *Mutant, chapter, by string) {
	test, _, _ := strings.Cut(by, ":")
	test, _, _ = strings.Cut(test, "/")
	if !strings.HasPrefix(test, "Test") && !strings.HasPrefix(test, "Fuzz") {
		return // a timeout or a crash outside any test: nothing to run alone
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byFn == nil {
		k.byFn = map[string]killer{}
	}
	k.byFn[m.Package+"."+m.Func] = killer{chapter, test}
}

// timeout bounds one run of a chapter: ten times its baseline, measured in
// the same run on the same machine, so only a mutant that hangs reaches it
// (a deleted Unlock deadlocks; a hang is a failure the tests noticed).
func (b *build) timeout(chapter string) time.Duration {
	return max(5*time.Second, time.Duration(10*b.baseline[chapter]*float64(time.Second)))
}

// judgeAlone builds the chapters with m alone through an overlay and runs
// them: the way for a mutant no runtime switch can reach (a constant).
func (b *build) judgeAlone(ctx context.Context, cfg Config, m *Mutant, chapters []*chapter) judgement {
	dir, err := os.MkdirTemp(b.dir, "alone-")
	if err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	defer os.RemoveAll(dir)
	abs := filepath.Join(cfg.Root, filepath.FromSlash(m.File))
	src, err := os.ReadFile(abs)
	if err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	copyPath := filepath.Join(dir, filepath.Base(abs))
	overlay := filepath.Join(dir, "overlay.json")
	if err := schemata.WriteFile(copyPath, apply(src, m)); err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	if err := schemata.WriteOverlay(overlay, map[string]string{abs: copyPath}); err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	// The quickest chapter is built and run first, since it kills most
	// mutants; the others are built together, one go command linking
	// them side by side, and run in turn.
	for i, group := range [][]*chapter{chapters[:1], chapters[1:]} {
		if len(group) == 0 {
			continue
		}
		args := []string{"test", "-c", "-o", filepath.Join(dir, fmt.Sprintf("bin%d", i)) + string(filepath.Separator), "-overlay", overlay}
		for _, ch := range group {
			args = append(args, ch.ImportPath)
		}
		cmd := exec.CommandContext(ctx, cfg.Go, args...)
		cmd.Dir = cfg.Root
		cmd.Env = append(os.Environ(), cfg.Env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return judgement{Verdict: Invalid, Reason: "does not build: " + firstLine(string(out))}
		}
		for _, ch := range group {
			bin := filepath.Join(dir, fmt.Sprintf("bin%d", i), ch.Name+".test")
			out := runBinary(ctx, cfg, ch, bin, 0, b.timeout(ch.Name))
			if out.failed {
				return judgement{Verdict: Killed, KilledBy: ch.Name + ": " + out.by}
			}
		}
	}
	return judgement{Verdict: Survived}
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
