package torturelab

// This file holds the plan: everything the seed fixes. Which worker is
// killed when, and under which owner name it comes back; which messages
// fail, and how often; when each worker pauses, and for how long. The
// operating system still decides the rest: who reaches the write lock
// first, how long a process takes to start, which message a kill lands
// on. Two runs with one seed follow one plan and still differ.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/fencelab/fencelab/internal/mailbox"
)

// runPlan is one run's plan, fixed by its seed and its flags.
type runPlan struct {
	Seed      int64         `json:"-"`
	LeaseMs   int64         `json:"-"`
	Owners    []string      `json:"owners"` // every owner name, in the order the processes start
	Kills     []plannedKill `json:"kills"`
	Failing   failing       `json:"failing_messages"`
	processes int
}

// plannedKill is one planned kill -9 and the restart that follows it.
type plannedKill struct {
	// AfterClaims: the kill is armed once the ledger's token counter has
	// handed out this many tokens (every claim that begins a generation
	// mints one).
	AfterClaims int `json:"after_claims"`
	// DelayMs: once armed, the kill comes this many milliseconds later.
	DelayMs int64 `json:"delay_ms"`
	// Worker is the owner name of the process killed; RestartAs the name
	// its replacement takes: the same name, as a restarted process
	// would, for half of the kills, and a new one for the others.
	Worker    string `json:"worker"`
	RestartAs string `json:"restart_as"`
	slot      int
	start     int // which start of that slot the replacement is (2 for the first restart)
}

// failing counts the messages the plan makes fail: once, twice, or every
// time (those end DEAD after mailbox.MaxRetries retries).
type failing struct {
	Once   int `json:"once"`
	Twice  int `json:"twice"`
	Always int `json:"always"`
}

// The plan's odds, per thousand.
const (
	// Of messages: fail on every attempt, on the first two, on the first.
	failAlwaysPerMille = 20
	failTwicePerMille  = 30
	failOncePerMille   = 80
	// Of the claims a worker wins: pause past the lease, pause within it.
	pausePastPerMille   = 30
	pauseWithinPerMille = 100
	// Of the claims it pauses on: claim again (renew) before finishing.
	renewPerMille = 250
)

// killWindow is the share of the messages, in per mille, within whose
// claims the kills are spread: late enough in a run that no kill may come
// after the last message is done.
const killWindow = 800

// newPlan makes the plan for seed, with the flags' numbers.
func newPlan(seed int64, processes, messages, kills int, leaseMs int64) runPlan {
	p := runPlan{Seed: seed, LeaseMs: leaseMs, processes: processes, Kills: []plannedKill{}}
	names := make([]string, processes) // each slot's current owner name
	starts := make([]int, processes)   // how many times each slot has started
	for slot := range processes {
		starts[slot] = 1
		names[slot] = ownerName(slot, starts[slot])
		p.Owners = append(p.Owners, names[slot])
	}
	r := rand.New(rand.NewPCG(uint64(seed), streamKills))
	// Which kills restart under the same name: exactly half (the odd one
	// out of an odd number keeps its name), shuffled.
	same := make([]bool, kills)
	for i := range (kills + 1) / 2 {
		same[i] = true
	}
	r.Shuffle(kills, func(i, j int) { same[i], same[j] = same[j], same[i] })
	at := make([]int, kills)
	for i := range at {
		at[i] = r.IntN(messages*killWindow/1000 + 1)
	}
	sort.Ints(at)
	for i := range kills {
		slot := r.IntN(processes)
		starts[slot]++
		k := plannedKill{AfterClaims: at[i], DelayMs: r.Int64N(leaseMs), Worker: names[slot], slot: slot, start: starts[slot]}
		if !same[i] {
			names[slot] = ownerName(slot, starts[slot])
		}
		k.RestartAs = names[slot]
		p.Kills = append(p.Kills, k)
		p.Owners = append(p.Owners, k.RestartAs)
	}
	for i := 1; i <= messages; i++ {
		switch failures(seed, i) {
		case 1:
			p.Failing.Once++
		case 2:
			p.Failing.Twice++
		case failsAlways:
			p.Failing.Always++
		}
	}
	return p
}

// ownerName is the owner name of the start-th process in slot: worker-a
// to worker-p for the first processes, worker-c2, worker-c3 for the
// processes that replace worker-c under a new name.
func ownerName(slot, start int) string {
	name := "worker-" + string(rune('a'+slot))
	if start > 1 {
		name += fmt.Sprint(start)
	}
	return name
}

// messageID is the id of the i-th message, from 1.
func messageID(i int) string { return fmt.Sprintf("msg-%d", i) }

// messageIndex is the i of messageID(i), or 0 for any other id.
func messageIndex(id string) int {
	var i int
	if _, err := fmt.Sscanf(id, "msg-%d", &i); err != nil || messageID(i) != id {
		return 0
	}
	return i
}

// failsAlways is what failures returns for a message that fails on
// every attempt.
const failsAlways = mailbox.MaxRetries + 1

// failures is how many attempts at message i fail before one succeeds:
// 0 for most, failsAlways for a message that always fails.
func failures(seed int64, i int) int {
	return failuresAt(mix(uint64(seed), uint64(i)) % 1000)
}

// failuresAt is failures for a message whose number, per mille, is u.
func failuresAt(u uint64) int {
	switch {
	case u < failAlwaysPerMille:
		return failsAlways
	case u < failAlwaysPerMille+failTwicePerMille:
		return 2
	case u < failAlwaysPerMille+failTwicePerMille+failOncePerMille:
		return 1
	}
	return 0
}

// The streams of the plan's random numbers, beside the seed.
const (
	streamKills = 1
	streamPause = 2 // of each worker process: pauses and renewals
	streamPick  = 3 // of each worker process: which message it tries
)

// workerRand returns the random numbers of stream for the start-th
// process of slot: the same for every run with one seed.
func workerRand(seed int64, slot, start int, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(uint64(seed), uint64(slot)<<32|uint64(start)), stream))
}

// mix is SplitMix64's finalizer over a and b: a well-spread 64-bit number
// for each pair, the same on every machine.
func mix(a, b uint64) uint64 {
	z := a + 0x9e3779b97f4a7c15*(b+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// step is what a worker does with one claim it won: pause (0 for not at
// all) and then, if renew, claim again before finishing.
type step struct {
	PauseMs   int64
	PastLease bool
	Renew     bool
}

// steps hands a worker process its steps, one per claim it wins, in
// order: the n-th claim of a process gets the same step in every run
// with one seed.
type steps struct {
	r *rand.Rand
}

// next is the step for the next claim won, its pause counted in leases
// of leaseMs.
func (s *steps) next(leaseMs int64) step {
	// Always three draws, whatever they decide, so that the n-th claim's
	// step does not depend on what the earlier ones were.
	kind, length, renew := s.r.IntN(1000), s.r.Float64(), s.r.IntN(1000)
	return stepFor(kind, length, renew, leaseMs)
}

// stepFor is the step the three draws decide: kind and renew per mille,
// length in [0, 1).
func stepFor(kind int, length float64, renew int, leaseMs int64) step {
	var st step
	switch {
	case kind < pausePastPerMille:
		// Past the lease: one and a half to four leases, rounded up, so
		// that even a 1 ms lease is paused past.
		st.PauseMs, st.PastLease = int64(math.Ceil(float64(leaseMs)*(1.5+2.5*length))), true
	case kind < pausePastPerMille+pauseWithinPerMille:
		// Within it: up to four fifths of a lease.
		st.PauseMs = int64(length * float64(leaseMs) * 0.8)
	}
	st.Renew = st.PauseMs > 0 && renew < renewPerMille
	return st
}
