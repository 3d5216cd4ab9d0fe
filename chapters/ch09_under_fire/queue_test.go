package underfire

// This file holds the queue-and-destination model-based tests: a fixed set
// of seeded random sequences, the stored regression cases, and the fuzz
// target.

import (
	"fmt"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/gate"
)

// The seeded runs take every contract in turn, and leases of chapter 5's
// five ticks and shorter.
var (
	queueContracts = []gate.Contract{gate.FenceReceipt, gate.Fence, gate.None}
	queueLeases    = []int64{5, 2, 1}
)

// The seeded run: queueSeeds sequences of queueSteps steps each.
const (
	queueSeeds = 12
	queueSteps = 100
)

// TestQueueAndGateAgreeWithModel: random sequences of claims, destination
// calls (with the fence of the caller's lease or another, the job's units
// or a changed payload, with or without the controlled failure) and
// finishes, under every contract. After every step the answer, the job's
// committed row, the fence counter, the destination's committed state and
// its arrivals log must be what the models say.
func TestQueueAndGateAgreeWithModel(t *testing.T) {
	t.Parallel()
	start, total := time.Now(), 0
	for seed := range queueSeeds {
		contract := queueContracts[seed%len(queueContracts)]
		lease := queueLeases[seed/len(queueContracts)%len(queueLeases)]
		c := generateQueue(newSeeded(uint64(seed), queueSteps), lease, contract, false)
		total += checkQueue(t, c, fmt.Sprintf("seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// The overtaking run: queueOvertakeSeeds sequences of queueOvertakeSteps
// steps each, about a third of them overtaken.
const (
	queueOvertakeSeeds = 10
	queueOvertakeSteps = 60
)

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
	start, total := time.Now(), 0
	for seed := range queueOvertakeSeeds {
		contract := queueContracts[seed%len(queueContracts)]
		lease := queueLeases[seed/len(queueContracts)%len(queueLeases)]
		c := generateQueue(newSeeded(uint64(1100+seed), queueOvertakeSteps), lease, contract, true)
		total += checkQueue(t, c, fmt.Sprintf("overtaking seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// TestQueueRegressionCases runs every case kept under testdata/queue.
func TestQueueRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "queue") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseQueueCase(text)
			assert.NilError(t, err, "testdata/queue/%s.case", name)
			checkQueue(t, c, "testdata/queue/"+name+".case")
		})
	}
}

// FuzzQueueModel draws the sequence from the fuzzer's bytes: the first
// picks the contract and the lease, each later one a choice of the
// generator.
//
//	go test -run '^$' -fuzz=FuzzQueueModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzQueueModel(f *testing.F) {
	for seed := range 3 {
		f.Add(seedBytes(uint64(100+seed), 400))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		contract := queueContracts[int(data[0])%len(queueContracts)]
		lease := queueLeases[int(data[0])/len(queueContracts)%len(queueLeases)]
		checkQueue(t, generateQueue(newFuzzBytes(data[1:]), lease, contract, false), "this fuzz input")
	})
}

// checkQueue replays c and returns how many steps ran. If the mechanism
// and the models disagree it shrinks the sequence and fails tb with it.
func checkQueue(tb testing.TB, c queueCase, from string) int {
	tb.Helper()
	ran, d := replayQueue(tb, c)
	if d == nil {
		return ran
	}
	disagrees := func(s []queueStep) bool {
		_, d := replayQueue(tb, queueCase{lease: c.lease, contract: c.contract, steps: s})
		return d != nil
	}
	steps, minimal := shrink(c.steps[:ran], disagrees)
	steps = startAtZero(steps, disagrees)
	if _, shrunk := replayQueue(tb, queueCase{lease: c.lease, contract: c.contract, steps: steps}); shrunk != nil {
		d = shrunk
		d.minimal = minimal
	}
	report(tb, "queue", fmt.Sprintf("%s, lease %d, contract %s; it showed at step %d", from, c.lease, c.contract, ran),
		ran, c.header(), *d)
	return ran
}
