package underfire

// This file holds where a sequence's choices come from: rapid draws every
// one, under a label, and when a sequence makes a mechanism and its model
// disagree, rapid shrinks it by shrinking those draws and replaying. A
// stored case (testdata/*/*.case) draws nothing: it is read and replayed.

import (
	"flag"
	"os"

	"pgregory.net/rapid"
)

// The chapter's defaults for rapid's flags, set before the command line is
// read, so that -rapid.checks, -rapid.seed and -rapid.nofailfile given
// there (or as RAPID_CHECKS, RAPID_SEED, RAPID_NOFAILFILE) still win.
func init() {
	// By default rapid saves every failing draw as a file under
	// testdata/rapid/. A learner's failing run must not add files to the
	// chapter's folder; the failure names the -rapid.seed that replays it.
	setRapidDefault("rapid.nofailfile", "RAPID_NOFAILFILE", "true")
	// rapid picks a new seed on every run unless told one. A fixed seed
	// makes every plain `go test` draw the same sequences, so a weakening
	// is caught on every run, not most, and the chapter's texts can quote
	// what it prints. -rapid.seed=N draws other sequences.
	setRapidDefault("rapid.seed", "RAPID_SEED", "1")
	// Every check replays its sequence on fresh SQLite files, a few
	// milliseconds before its first step, so rapid's 100 checks per test
	// would spend most of the chapter's time opening files. 10 checks, each
	// as long as its test's rounds make it (drawSteps), give every test at
	// least the steps the seeded runs of earlier editions gave it, in about
	// the same time.
	setRapidDefault("rapid.checks", "RAPID_CHECKS", "10")
	// rapid shrinks for up to 30 s. A learner who just made an edit wants
	// the red test, and a shorter case, in seconds; 5 s of shrinking gives
	// a case of a few steps. -rapid.shrinktime=30s shrinks further.
	setRapidDefault("rapid.shrinktime", "RAPID_SHRINKTIME", "5s")
}

// setRapidDefault sets rapid's flag name to value unless env is set.
func setRapidDefault(name, env, value string) {
	if _, ok := os.LookupEnv(env); ok {
		return
	}
	if err := flag.Set(name, value); err != nil {
		panic(err)
	}
}

// drawSteps draws a sequence of steps: rounds rounds of t.Repeat, each
// about -rapid.steps (30 by default) calls of step, which draws one step
// and records it. A test sets its length in rounds: more rounds, longer
// sequences. Shrinking leaves out whole steps (each is one repeat of
// t.Repeat), and cuts a round short.
func drawSteps(t *rapid.T, rounds int, step func(*rapid.T)) {
	for range rounds {
		t.Repeat(map[string]func(*rapid.T){"step": step})
	}
}

// chance reports whether something that happens k times in n happens this
// time, drawn under label. Shrinking lowers the draw to 0, which is no: a
// shrunk sequence keeps only the departures from the ordinary step that
// matter.
func chance(t *rapid.T, label string, k, n int) bool {
	return below(t, label, n) >= n-k
}

// below draws a number in [0, n) under label; shrinking lowers it.
func below(t *rapid.T, label string, n int) int {
	if n < len(belowGens) {
		return belowGens[n].Draw(t, label)
	}
	return rapid.IntRange(0, n-1).Draw(t, label)
}

// belowGens holds below's generators for small n, made once: a generator
// formats its description when it is made, and a sequence draws a dozen
// numbers a step.
var belowGens = func() []*rapid.Generator[int] {
	gens := make([]*rapid.Generator[int], 128)
	for n := 1; n < len(gens); n++ {
		gens[n] = rapid.IntRange(0, n-1)
	}
	return gens
}()

// choose draws one of xs under label; shrinking leads to the first.
func choose[T any](t *rapid.T, label string, xs ...T) T { return rapid.SampledFrom(xs).Draw(t, label) }

// drawTime draws the logical time of the next step: mostly the same
// minute or a little later, often exactly at, or one either side of, a
// lease's end (ends lists them), sometimes backwards, sometimes anywhere.
// Shrinking leads to the same minute as the step before.
func drawTime(t *rapid.T, now int64, ends []int64, span int64) int64 {
	switch below(t, "when", 10) {
	case 0, 1, 2:
		return now
	case 3, 4:
		return now + 1 + int64(below(t, "minutes later", 3))
	case 5, 6:
		if len(ends) > 0 {
			return choose(t, "lease end", ends...)
		}
		return now + span
	case 7:
		if len(ends) > 0 {
			return choose(t, "lease end", ends...) - 1 + int64(2*below(t, "after", 2)) // one before or one after
		}
		return now
	case 8:
		return max(0, now-1-int64(below(t, "minutes back", int(span))))
	}
	return int64(below(t, "minute", int(4*span+1)))
}
