package mutate

// This file judges one mutant: it runs the judges that can kill it,
// quickest first, and stops at the first that does.

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// judgement is one mutant's verdict before excuses.
type judgement struct {
	Verdict  Verdict
	KilledBy string
	Reason   string
	Seconds  float64
	// err means no verdict could be reached: a judge fails with no
	// mutant on, so its failures prove nothing.
	err error
}

// judge runs m against the judges that can kill it, quickest first, and
// stops at the first that does. The test that last killed a mutant of the
// same function runs alone before them: neighbouring mutants break the
// same property, so it usually kills this one too, in a fraction of its
// package's time. A cancelled ctx ends the judgement early; the caller
// discards it.
func (b *build) judge(ctx context.Context, m *Mutant, judges []*judge) judgement {
	start := time.Now()
	var mine []*judge
	for _, j := range judges {
		if j.uses[m.Package] != 0 {
			mine = append(mine, j)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return b.cost(mine[i], m) < b.cost(mine[j], m) })
	var j judgement
	switch num, ok := b.nums[m]; {
	case len(mine) == 0:
		j = judgement{Verdict: Survived, Reason: "no test package reaches " + m.Package}
	case ok:
		j = b.judgeSwitched(ctx, m, num, mine)
	default:
		j = b.judgeAlone(ctx, m, mine)
	}
	j.Seconds = round(time.Since(start).Seconds())
	return j
}

// cost orders the judges of m, cheapest first: by their baseline, or with
// none by what they usually cost: the package's own tests, then other
// tests under internal/, then the chapters' tests, then their scripts.
func (b *build) cost(j *judge, m *Mutant) float64 {
	switch {
	case !b.lean:
		return b.baseline[j.Name]
	case j.Name == m.Package:
		return 0
	case strings.HasPrefix(j.Name, "internal/"):
		return 1
	case j.uses[m.Package] == reachTests:
		return 2
	}
	return 3
}

// confirm checks, for a judge that ran no baseline, that the test that
// killed a mutant passes with no mutant on; else the kill proves nothing.
func (b *build) confirm(ctx context.Context, j *judge, bin variant.Binary, by string) error {
	k, ok := killerOf(j.Name, by)
	if !b.lean || !ok {
		return nil
	}
	out, err := b.runTests(ctx, bin, 0, leanTimeout, "-test.run="+k.pattern())
	if err == nil && out.failed {
		err = fmt.Errorf("mutate: %s fails with no mutant switched on: %s", j.Name, out.by)
	}
	return err
}

// confirmWithout confirms a kill by a mutant built alone: the test that
// killed it must pass in j's shared build, where no mutant is on.
func (b *build) confirmWithout(ctx context.Context, j *judge, by string) error {
	if !b.lean {
		return nil
	}
	bin, ok := b.shared.Binary(j.Name)
	if !ok {
		return fmt.Errorf("mutate: %s has no build without the mutant to confirm its kill", j.Name)
	}
	return b.confirm(ctx, j, bin, by)
}

// selection is the tests of j that can kill a mutant of pkg: the scripts
// alone if only they reach it, else all of them.
func selection(j *judge, pkg string) []string {
	if j.uses[pkg] == reachScripts {
		return []string{"-test.run=" + scriptTests}
	}
	return nil
}

// judgeSwitched runs the shared build's binaries with m's switch on: the
// last killer of its function alone first, then each judge in turn.
func (b *build) judgeSwitched(ctx context.Context, m *Mutant, num int, mine []*judge) judgement {
	var tried killer
	for _, k := range b.firstTries(m, mine) {
		if k == tried {
			continue
		}
		tried = k
		j := b.judges[k.judge]
		if out, err := b.run(ctx, j, num, b.timeout(j.Name), "-test.run="+k.pattern()); err == nil && out.failed {
			bin, _ := b.shared.Binary(j.Name)
			if err := b.confirm(ctx, j, bin, out.by); err != nil {
				return judgement{err: err}
			}
			b.killers.record(m, j.Name, out.by)
			return judgement{Verdict: Killed, KilledBy: j.Name + ": " + out.by}
		}
	}
	for _, j := range mine {
		out, err := b.run(ctx, j, num, b.timeout(j.Name), selection(j, m.Package)...)
		if err != nil {
			return judgement{Verdict: Invalid, Reason: err.Error()}
		}
		if out.failed {
			bin, _ := b.shared.Binary(j.Name)
			if err := b.confirm(ctx, j, bin, out.by); err != nil {
				return judgement{err: err}
			}
			b.killers.record(m, j.Name, out.by)
			return judgement{Verdict: Killed, KilledBy: j.Name + ": " + out.by}
		}
	}
	return judgement{Verdict: Survived}
}

// firstTries lists the single tests to run before m's judges whole: the
// test that killed m itself when it was last judged, then the one that
// last killed a mutant of its function in this run. A test of a judge
// that no longer reaches m's package is left out: it proves nothing
// about m.
func (b *build) firstTries(m *Mutant, mine []*judge) []killer {
	var out []killer
	reaches := func(k killer) bool {
		for _, j := range mine {
			if j.Name == k.judge {
				return true
			}
		}
		return false
	}
	if k, ok := b.previous[m.ID]; ok && reaches(k) {
		out = append(out, k)
	}
	if k, ok := b.killers.last(m); ok && reaches(k) {
		out = append(out, k)
	}
	return out
}

// judgeAlone builds the judges with m alone through an overlay and runs
// them: the way for a mutant no runtime switch can reach (an exported
// constant). The quickest judge is built and run first, since it kills
// most mutants; the others are built together and run in turn.
func (b *build) judgeAlone(ctx context.Context, m *Mutant, mine []*judge) judgement {
	src, err := m.Apply(b.root)
	if err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	dir, err := b.cfg.Runner.TempDir(ctx, "mutant-")
	if err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	copyPath := filepath.Join(dir, filepath.Base(m.File))
	if err := variant.WriteFile(copyPath, src); err != nil {
		return judgement{Verdict: Invalid, Reason: err.Error()}
	}
	ov := variant.Overlay{filepath.Join(b.root, filepath.FromSlash(m.File)): copyPath}
	for _, group := range [][]*judge{mine[:1], mine[1:]} {
		if len(group) == 0 {
			continue
		}
		chs := make([]variant.Chapter, len(group))
		for i, j := range group {
			chs[i] = j.Chapter
		}
		bins, err := b.cfg.Runner.BuildAlone(ctx, ov, chs)
		if err != nil {
			return judgement{Verdict: Invalid, Reason: "does not build: " + firstLine(err.Error())}
		}
		for _, j := range group {
			out, err := b.runBinary(ctx, bins[j.Name], 0, b.timeout(j.Name), j.pick(selection(j, m.Package))...)
			if err != nil {
				return judgement{Verdict: Invalid, Reason: err.Error()}
			}
			if out.failed {
				// The confirmation runs the build without the mutant: this
				// binary has it compiled in, so it would fail again.
				if err := b.confirmWithout(ctx, j, out.by); err != nil {
					return judgement{err: err}
				}
				return judgement{Verdict: Killed, KilledBy: j.Name + ": " + out.by}
			}
		}
	}
	return judgement{Verdict: Survived}
}

// killers remembers, per mutated function, the judge and test that last
// killed one of its mutants. Judges run side by side, so it is guarded.
type killers struct {
	mu   sync.Mutex
	byFn map[string]killer
}

// killer is one judge's top-level test, and for the scripts the script.
type killer struct{ judge, test, script string }

// pattern is the -test.run pattern that runs the killer alone.
func (k killer) pattern() string {
	p := "^" + regexp.QuoteMeta(k.test) + "$"
	if k.script != "" {
		p += "/^" + regexp.QuoteMeta(k.script) + "$"
	}
	return p
}

func (k *killers) last(m *Mutant) (killer, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	got, ok := k.byFn[m.Package+"."+m.Func]
	return got, ok
}

// record notes that the test named at the start of by (as outcome.by
// gives it: "TestName/sub: why") in judge killed m.
func (k *killers) record(m *Mutant, judge, by string) {
	got, ok := killerOf(judge, by)
	if !ok {
		return // a timeout or a crash outside any test: nothing to run alone
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byFn == nil {
		k.byFn = map[string]killer{}
	}
	k.byFn[m.Package+"."+m.Func] = got
}

// killerOf is the test of judge that by names (as outcome.by gives it:
// "TestName/sub: why"), with its script for the scripts' test; false for
// a timeout or a crash outside any test.
func killerOf(judge, by string) (killer, bool) {
	name, _, _ := strings.Cut(by, ":")
	test, sub, _ := strings.Cut(name, "/")
	if !strings.HasPrefix(test, "Test") && !strings.HasPrefix(test, "Fuzz") {
		return killer{}, false
	}
	script := ""
	if "^"+test+"$" == scriptTests {
		script, _, _ = strings.Cut(sub, "/")
	}
	return killer{judge, test, script}, true
}
