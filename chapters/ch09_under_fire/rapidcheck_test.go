package underfire

// This file holds how a model test runs its property: under rapid.Check
// in a plain `go test`, under rapid.MakeFuzz with -fuzz.

import (
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// property is a model test's body: it draws a sequence, replays it on the
// mechanism and the model, fails if they disagree, and returns how many
// steps ran.
type property func(*rapid.T) int

// fuzz returns p as rapid.MakeFuzz takes it.
func (p property) fuzz() func(*rapid.T) { return func(t *rapid.T) { p(t) } }

// checkSteps runs p under rapid.Check, -rapid.checks times, and logs how
// many steps ran and how fast. When a check fails, rapid shrinks its draws
// and prints the shortest failing sequence it found, and the -rapid.seed
// that draws it again.
func checkSteps(t *testing.T, p property) {
	t.Helper()
	start, total := time.Now(), 0
	rapid.Check(t, func(rt *rapid.T) { total += p(rt) })
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// fuzzRounds is the length of a fuzz target's sequences, in rounds of
// about 30 steps (drawSteps): short enough that a plain `go test` runs
// the fixed inputs in a blink, long enough that they catch the
// weakenings naming the fuzz targets.
const fuzzRounds = 3

// fuzzSeedBytes is the length of one fixed fuzz input: rapid reads eight
// bytes a number and a step takes a few dozen numbers, so this is enough
// for some 600 steps, far more than fuzzRounds draw on average. An input
// that runs out first is skipped.
const fuzzSeedBytes = 128 << 10

// addFuzzSeeds adds n fixed inputs, drawn from seeds from, from+1, ...,
// which a plain `go test` runs through the fuzz target.
func addFuzzSeeds(f *testing.F, from uint64, n int) {
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(from+seed, 0x9e3779b97f4a7c15))
		b := make([]byte, fuzzSeedBytes)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
	}
}
