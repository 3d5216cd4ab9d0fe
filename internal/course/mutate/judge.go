package mutate

// This file judges one mutant: it runs the chapters that can kill it,
// quickest first, and stops at the first that does.

import (
	"context"
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
}

// judge runs m against the chapters that can kill it, quickest first,
// and stops at the first that does. The test that last killed a mutant of
// the same function runs alone before them: neighbouring mutants break the
// same property, so it usually kills this one too, in a fraction of its
// chapter's time. A cancelled ctx ends the judgement early; the caller
// discards it.
func (b *build) judge(ctx context.Context, m *Mutant, chapters []*chapter) judgement {
	start := time.Now()
	var mine []*chapter
	for _, ch := range chapters {
		if ch.Uses[m.Package] {
			mine = append(mine, ch)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return b.baseline[mine[i].Name] < b.baseline[mine[j].Name] })
	var j judgement
	switch num, ok := b.nums[m]; {
	case len(mine) == 0:
		j = judgement{Verdict: Survived, Reason: "no chapter's tests use " + m.Package}
	case ok:
		j = b.judgeSwitched(ctx, m, num, mine)
	default:
		j = b.judgeAlone(ctx, m, mine)
	}
	j.Seconds = round(time.Since(start).Seconds())
	return j
}

// judgeSwitched runs the shared build's binaries with m's switch on: the
// last killer of its function alone first, then each chapter in turn.
func (b *build) judgeSwitched(ctx context.Context, m *Mutant, num int, mine []*chapter) judgement {
	if k, ok := b.killers.last(m); ok {
		ch := b.chapters[k.chapter]
		if out, err := b.run(ctx, ch, num, b.timeout(ch.Name), "-test.run=^"+regexp.QuoteMeta(k.test)+"$"); err == nil && out.failed {
			return judgement{Verdict: Killed, KilledBy: ch.Name + ": " + out.by}
		}
	}
	for _, ch := range mine {
		out, err := b.run(ctx, ch, num, b.timeout(ch.Name))
		if err != nil {
			return judgement{Verdict: Invalid, Reason: err.Error()}
		}
		if out.failed {
			b.killers.record(m, ch.Name, out.by)
			return judgement{Verdict: Killed, KilledBy: ch.Name + ": " + out.by}
		}
	}
	return judgement{Verdict: Survived}
}

// judgeAlone builds the chapters with m alone through an overlay and runs
// them: the way for a mutant no runtime switch can reach (an exported
// constant). The quickest chapter is built and run first, since it kills
// most mutants; the others are built together and run in turn.
func (b *build) judgeAlone(ctx context.Context, m *Mutant, mine []*chapter) judgement {
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
	for _, group := range [][]*chapter{mine[:1], mine[1:]} {
		if len(group) == 0 {
			continue
		}
		chs := make([]variant.Chapter, len(group))
		for i, ch := range group {
			chs[i] = ch.Chapter
		}
		bins, err := b.cfg.Runner.BuildAlone(ctx, ov, chs)
		if err != nil {
			return judgement{Verdict: Invalid, Reason: "does not build: " + firstLine(err.Error())}
		}
		for _, ch := range group {
			out, err := b.runBinary(ctx, bins[ch.Name], 0, b.timeout(ch.Name))
			if err != nil {
				return judgement{Verdict: Invalid, Reason: err.Error()}
			}
			if out.failed {
				return judgement{Verdict: Killed, KilledBy: ch.Name + ": " + out.by}
			}
		}
	}
	return judgement{Verdict: Survived}
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
