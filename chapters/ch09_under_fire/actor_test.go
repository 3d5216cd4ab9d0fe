package underfire

// This file holds the actor ledger's model-based tests: sequences rapid
// draws and shrinks, whose calls are overtaken, the stored regression
// cases, and the fuzz target.

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	"pgregory.net/rapid"
)

// actorLeases are the leases rapid draws from: chapter 8's 15 minutes
// (where shrinking leads) and leases short enough to end all the time.
var actorLeases = []int64{15, 3, 1}

// actorOvertakeRounds is the length of the actors' sequences, in rounds of
// about 30 steps (drawSteps): with 10 checks, some 900 steps (the seeded
// run of earlier editions took 16 x 50).
const actorOvertakeRounds = 3

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
	checkSteps(t, actorProperty(rapid.Just(true), actorOvertakeRounds))
}

// TestActorRegressionCases runs every case kept under testdata/actor.
func TestActorRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "actor") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseActorCase(text)
			assert.NilError(t, err, "testdata/actor/%s.case", name)
			checkActors(t, t, c, "testdata/actor/"+name+".case")
		})
	}
}

// FuzzActorModel draws the sequence from the fuzzer's bytes, through
// rapid: a lease, whether steps are overtaken, and fuzzRounds rounds of
// steps.
//
//	go test -run '^$' -fuzz=FuzzActorModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzActorModel(f *testing.F) {
	addFuzzSeeds(f, 410, 3)
	f.Fuzz(rapid.MakeFuzz(actorProperty(rapid.Bool(), fuzzRounds).fuzz()))
}

// actorProperty draws a lease, whether steps are overtaken (from
// overtake), and a sequence of rounds rounds, and replays it.
func actorProperty(overtake *rapid.Generator[bool], rounds int) property {
	return func(t *rapid.T) int {
		lease := choose(t, "lease", actorLeases...)
		c := generateActors(t, lease, overtake.Draw(t, "overtaken steps"), rounds)
		return checkActors(rapidTB{t: t}, t, c, "drawn by rapid")
	}
}

// checkActors replays c and returns how many steps ran. If the mechanism
// and the model disagree it fails fail with the steps up to the one where
// they did.
func checkActors(tb testing.TB, fail failer, c actorCase, from string) int {
	tb.Helper()
	ran, d := replayActors(tb, c)
	if d != nil {
		report(fail, "actor", fmt.Sprintf("%s, %s", from, c.header()[0]), ran, c.header(), *d)
	}
	return ran
}
