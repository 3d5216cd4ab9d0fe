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
	"sort"
	"strings"
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

	// Group the switchable mutants by package and file.
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
	cfg.logf("mutate: running the %d chapters with no mutant on", len(names))
	for _, name := range names {
		start := time.Now()
		out := runBinary(ctx, cfg, b.chapters[name], b.bins[name], 0, 5*time.Minute)
		if out.failed {
			return fail(fmt.Errorf("mutate: %s fails with no mutant switched on: %s", name, out.by))
		}
		b.baseline[name] = time.Since(start).Seconds()
	}
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
// and stops at the first that does.
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
		for _, ch := range mine {
			out := runBinary(ctx, cfg, ch, b.bins[ch.Name], num, b.timeout(ch.Name))
			if out.failed {
				j.Verdict, j.KilledBy = Killed, ch.Name+": "+out.by
				break
			}
		}
	} else if len(mine) > 0 {
		j = b.judgeAlone(ctx, cfg, m, mine)
	}
	j.Seconds = round(time.Since(start).Seconds())
	return j
}

// timeout bounds one run of a chapter: ten times its baseline, measured in
// the same run on the same machine, so only a mutant that hangs reaches it
// (a deleted Unlock deadlocks; a hang is a failure the tests noticed).
func (b *build) timeout(chapter string) time.Duration {
	return max(10*time.Second, time.Duration(10*b.baseline[chapter]*float64(time.Second)))
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
	for _, ch := range chapters {
		bin := filepath.Join(dir, ch.Name+".test")
		cmd := exec.CommandContext(ctx, cfg.Go, "test", "-c", "-o", bin, "-overlay", overlay, ch.ImportPath)
		cmd.Dir = cfg.Root
		cmd.Env = append(os.Environ(), cfg.Env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return judgement{Verdict: Invalid, Reason: "does not build: " + firstLine(string(out))}
		}
		out := runBinary(ctx, cfg, ch, bin, 0, b.timeout(ch.Name))
		if out.failed {
			return judgement{Verdict: Killed, KilledBy: ch.Name + ": " + out.by}
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
