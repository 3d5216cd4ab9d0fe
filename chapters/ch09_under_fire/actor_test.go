package underfire

// This file holds the actor ledger's model-based tests: random sequences
// whose calls are overtaken, and the stored regression cases.

import (
	"fmt"
	"testing"
	"time"

	"gotest.tools/v3/assert"
)

// actorLeases are the leases the seeded runs take in turn: chapter 8's
// 15 minutes and leases short enough to end all the time.
var actorLeases = []int64{15, 3, 1}

// The overtaking run: actorOvertakeSeeds sequences of actorOvertakeSteps
// steps each, about a third of them overtaken.
const (
	actorOvertakeSeeds = 16
	actorOvertakeSteps = 50
)

// TestActorsDecideInsideTheirTransactionsWhenOvertaken: random sequences
// of lease acquires and releases, attempts presenting the caller's lease
// or another, and ordinary runs, from three processes, where about one
// call in three is overtaken: another process's next step runs whole just
// before one of the call's transactions begins, for a run the first, the
// one after its lease, after its attempt, before its terminal write or
// before its release (overtake_test.go). The answers, every lease, every
// assignment, the attempts log and the token counter must be what
// model.Actors says with each transaction where it committed. A lease,
// an attempt, a start or a terminal write that decided from a row read
// before its transaction answers from a row that has changed since.
func TestActorsDecideInsideTheirTransactionsWhenOvertaken(t *testing.T) {
	t.Parallel()
	start, total := time.Now(), 0
	for seed := range actorOvertakeSeeds {
		lease := actorLeases[seed%len(actorLeases)]
		c := generateActors(newSeeded(uint64(1300+seed), actorOvertakeSteps), lease, true)
		total += checkActors(t, c, fmt.Sprintf("overtaking seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// TestActorRegressionCases runs every case kept under testdata/actor.
func TestActorRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "actor") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseActorCase(text)
			assert.NilError(t, err, "testdata/actor/%s.case", name)
			checkActors(t, c, "testdata/actor/"+name+".case")
		})
	}
}

// FuzzActorModel draws the sequence from the fuzzer's bytes: the first
// picks the lease, and whether steps are overtaken (its top bit); each
// later one a choice of the generator.
//
//	go test -run '^$' -fuzz=FuzzActorModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzActorModel(f *testing.F) {
	for seed := range 3 {
		f.Add(seedBytes(uint64(410+seed), 300))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		lease := actorLeases[int(data[0])%len(actorLeases)]
		checkActors(t, generateActors(newFuzzBytes(data[1:]), lease, data[0] >= 128), "this fuzz input")
	})
}

// checkActors replays c and returns how many steps ran. If the mechanism
// and the model disagree it shrinks the sequence and fails tb with it.
func checkActors(tb testing.TB, c actorCase, from string) int {
	tb.Helper()
	ran, d := replayActors(tb, c)
	if d == nil {
		return ran
	}
	disagrees := func(s []actorStep) bool {
		_, d := replayActors(tb, actorCase{lease: c.lease, steps: s})
		return d != nil
	}
	steps, minimal := shrink(c.steps[:ran], disagrees)
	steps = startAtZero(steps, disagrees)
	if _, shrunk := replayActors(tb, actorCase{lease: c.lease, steps: steps}); shrunk != nil {
		d = shrunk
		d.minimal = minimal
	}
	report(tb, "actor", fmt.Sprintf("%s, %s; it showed at step %d", from, c.header()[0], ran), ran, c.header(), *d)
	return ran
}
