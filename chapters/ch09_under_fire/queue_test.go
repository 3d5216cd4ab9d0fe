package underfire

// This file holds the queue-and-destination model-based tests: sequences
// rapid draws and shrinks, the stored regression cases, and the fuzz
// target.

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	"pgregory.net/rapid"

	"github.com/fencelab/fencelab/internal/gate"
)

// rapid draws every contract, and leases of chapter 5's five ticks and
// shorter; shrinking leads to the first of each.
var (
	queueContracts = []gate.Contract{gate.FenceReceipt, gate.Fence, gate.None}
	queueLeases    = []int64{5, 2, 1}
)

// The lengths of the queue's sequences, in rounds of about 30 steps
// (drawSteps): with 10 checks, some 1,200 steps in the plain run (the
// seeded run of earlier editions took 12 x 100), some 600 in the
// overtaking one (10 x 60).
const (
	queueRounds         = 4
	queueOvertakeRounds = 2
)

// TestQueueAndGateAgreeWithModel: random sequences of claims, destination
// calls (with the fence of the caller's lease or another, the job's units
// or a changed payload, with or without the controlled failure) and
// finishes, under every contract. After every step the answer, the job's
// committed row, the fence counter, the destination's committed state and
// its arrivals log must be what the models say.
func TestQueueAndGateAgreeWithModel(t *testing.T) {
	t.Parallel()
	checkSteps(t, queueProperty(false, queueRounds))
}

// TestQueueAndGateDecideInsideTheirTransactionsWhenOvertaken: random
// sequences like TestQueueAndGateAgreeWithModel's, where about one call in
// three is overtaken: it has read the clock, and it stops just before its
// transaction begins while the next step, mostly on the same job, runs
// whole (overtake_test.go). After every step the answers, the job rows,
// the fence counter, the destination's state and its arrivals log must be
// what the models say with the overtaker first. A claim or finish that
// decided from a job row read before its transaction, or a call admitted
// by a mark read before its transaction, answers from a row that has
// changed since.
func TestQueueAndGateDecideInsideTheirTransactionsWhenOvertaken(t *testing.T) {
	t.Parallel()
	checkSteps(t, queueProperty(true, queueOvertakeRounds))
}

// TestQueueRegressionCases runs every case kept under testdata/queue.
func TestQueueRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "queue") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseQueueCase(text)
			assert.NilError(t, err, "testdata/queue/%s.case", name)
			checkQueue(t, t, c, "testdata/queue/"+name+".case")
		})
	}
}

// FuzzQueueModel draws the sequence from the fuzzer's bytes, through
// rapid: the same property as TestQueueAndGateAgreeWithModel's,
// fuzzRounds long.
//
//	go test -run '^$' -fuzz=FuzzQueueModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzQueueModel(f *testing.F) {
	addFuzzSeeds(f, 100, 3)
	f.Fuzz(rapid.MakeFuzz(queueProperty(false, fuzzRounds).fuzz()))
}

// queueProperty draws a contract, a lease and a sequence of rounds
// rounds, and replays it.
func queueProperty(overtake bool, rounds int) property {
	return func(t *rapid.T) int {
		contract := choose(t, "contract", queueContracts...)
		lease := choose(t, "lease", queueLeases...)
		c := generateQueue(t, lease, contract, overtake, rounds)
		return checkQueue(rapidTB{t: t}, t, c, "drawn by rapid")
	}
}

// checkQueue replays c and returns how many steps ran. If the mechanism
// and the models disagree it fails fail with the steps up to the one
// where they did.
func checkQueue(tb testing.TB, fail failer, c queueCase, from string) int {
	tb.Helper()
	ran, d := replayQueue(tb, c)
	if d != nil {
		report(fail, "queue", fmt.Sprintf("%s, lease %d, contract %s", from, c.lease, c.contract), ran, c.header(), *d)
	}
	return ran
}
