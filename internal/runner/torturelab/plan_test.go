package torturelab

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/mailbox"
)

// TestThePlanKillsAsAskedAndHalfComeBackUnderTheirName: the plan has the
// kills asked for, sorted by the claims after which each is armed, all
// within the first killWindow per mille of the messages; each waits less
// than a lease once armed; each names the process its slot runs at that
// moment; exactly half come back under that name (the odd one out does),
// the others under the slot's next name; and the owner list is every
// first process, then every replacement, in order.
func TestThePlanKillsAsAskedAndHalfComeBackUnderTheirName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed                      int64
		processes, messages, kill int
		leaseMs                   int64
	}{
		{9, 4, 400, 6, 40},
		{1, 2, 1, 7, 1},
		{77, 16, 1000, 301, 5},
		{3, 3, 50, 0, 40},
	} {
		p := newPlan(tc.seed, tc.processes, tc.messages, tc.kill, tc.leaseMs)

		assert.Equal(t, len(p.Kills), tc.kill, "seed %d: kills planned", tc.seed)
		assert.Equal(t, p.processes, tc.processes, "seed %d: processes", tc.seed)
		assert.Equal(t, len(p.Owners), tc.processes+tc.kill, "seed %d: one owner per process started", tc.seed)
		current := slices.Clone(p.Owners[:tc.processes])
		for slot, name := range current {
			assert.Equal(t, name, ownerName(slot, 1), "seed %d: the first process of slot %d", tc.seed, slot)
		}
		starts := make([]int, tc.processes)
		same := 0
		for i, k := range p.Kills {
			assert.Assert(t, i == 0 || p.Kills[i-1].AfterClaims <= k.AfterClaims, "seed %d: kill %d is armed before kill %d", tc.seed, i, i-1)
			assert.Assert(t, k.AfterClaims >= 0 && k.AfterClaims <= tc.messages*killWindow/1000,
				"seed %d: kill %d armed after %d claims; the window ends at %d", tc.seed, i, k.AfterClaims, tc.messages*killWindow/1000)
			assert.Assert(t, k.DelayMs >= 0 && k.DelayMs < tc.leaseMs, "seed %d: kill %d waits %d ms; want less than a lease of %d", tc.seed, i, k.DelayMs, tc.leaseMs)
			assert.Equal(t, k.Worker, current[k.slot], "seed %d: kill %d names a process slot %d does not run", tc.seed, i, k.slot)
			starts[k.slot]++
			assert.Equal(t, k.start, starts[k.slot]+1, "seed %d: kill %d starts slot %d's process number", tc.seed, i, k.slot)
			if k.RestartAs == k.Worker {
				same++
			} else {
				assert.Equal(t, k.RestartAs, ownerName(k.slot, k.start), "seed %d: kill %d's new name", tc.seed, i)
			}
			current[k.slot] = k.RestartAs
			assert.Equal(t, p.Owners[tc.processes+i], k.RestartAs, "seed %d: owner list entry of kill %d", tc.seed, i)
		}
		assert.Equal(t, same, (tc.kill+1)/2, "seed %d: kills whose process comes back under its own name, of %d", tc.seed, tc.kill)
	}
}

// TestTheKillsSpreadOverTheWholeWindow: over many kills, the claims after
// which they are armed reach both ends of the window (no claim yet, and
// the last claim in it), so no part of a run is spared; and the wait
// once armed reaches from none to a millisecond short of the lease.
func TestTheKillsSpreadOverTheWholeWindow(t *testing.T) {
	t.Parallel()
	const messages, kills, leaseMs = 10_000, 50_000, 40
	p := newPlan(5, 4, messages, kills, leaseMs)
	assert.Equal(t, p.Kills[0].AfterClaims, 0, "the earliest kill's claims")
	assert.Equal(t, p.Kills[len(p.Kills)-1].AfterClaims, 8000, "the latest kill's claims, of %d messages: 800 per mille", messages)
	var delays []int64
	for _, k := range p.Kills {
		delays = append(delays, k.DelayMs)
	}
	assert.Equal(t, slices.Min(delays), int64(0), "the shortest wait once armed")
	assert.Equal(t, slices.Max(delays), int64(leaseMs-1), "the longest wait once armed, under a %d ms lease", leaseMs)
}

// TestThePlanCountsTheFailingMessagesOfItsRun: the plan's failing counts
// are those of msg-1 to msg-M, the run's messages, and of no other.
func TestThePlanCountsTheFailingMessagesOfItsRun(t *testing.T) {
	t.Parallel()
	for seed := range int64(300) {
		f := newPlan(seed, 2, 1, 0, 40).Failing
		want := failing{}
		switch failures(seed, 1) {
		case 1:
			want.Once = 1
		case 2:
			want.Twice = 1
		case failsAlways:
			want.Always = 1
		}
		assert.Equal(t, f, want, "seed %d: the failing counts of a run of msg-1 alone", seed)
	}
}

// TestOneSeedOnePlan: the plan is a function of the seed and the flags:
// the same seed gives the same plan, another seed another one.
func TestOneSeedOnePlan(t *testing.T) {
	t.Parallel()
	a, b := newPlan(9, 4, 400, 6, 40), newPlan(9, 4, 400, 6, 40)
	assert.Check(t, reflect.DeepEqual(a, b), "two plans of seed 9:\n%+v\n%+v", a, b)
	c := newPlan(10, 4, 400, 6, 40)
	assert.Check(t, !slices.Equal(a.Kills, c.Kills), "seeds 9 and 10 plan the same kills")
}

// TestOwnerNames: a slot's first process is worker- and the slot's
// letter; a replacement under a new name adds the number of its start.
func TestOwnerNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		slot, start int
		want        string
	}{{0, 1, "worker-a"}, {2, 1, "worker-c"}, {15, 1, "worker-p"}, {2, 2, "worker-c2"}, {1, 3, "worker-b3"}} {
		assert.Check(t, cmp.Equal(ownerName(tc.slot, tc.start), tc.want), "slot %d, start %d", tc.slot, tc.start)
	}
}

// TestAMessagesIndexIsReadOnlyFromItsOwnID: messageIndex undoes
// messageID and nothing else: an id the run did not make is index 0,
// which no message has.
func TestAMessagesIndexIsReadOnlyFromItsOwnID(t *testing.T) {
	t.Parallel()
	for _, i := range []int{1, 9, 400, 100000} {
		assert.Check(t, cmp.Equal(messageIndex(messageID(i)), i), "the index of %s", messageID(i))
	}
	for _, id := range []string{"msg-01", "msg-", "msg-1x", "job-1", ""} {
		assert.Check(t, cmp.Equal(messageIndex(id), 0), "the index of %q", id)
	}
}

// TestMixIsSplitMix64: the numbers behind every plan are SplitMix64's, so
// a seed means the same on every machine: the published outputs for the
// seeds 0 and 1234567.
func TestMixIsSplitMix64(t *testing.T) {
	t.Parallel()
	assert.Check(t, cmp.Equal(mix(0, 0), uint64(0xe220a8397b1dcdaf)))
	assert.Check(t, cmp.Equal(mix(0, 1), uint64(0x6e789e6aa1b965f4)))
	assert.Check(t, cmp.Equal(mix(1234567, 0), uint64(6457827717110365317)))
	assert.Check(t, cmp.Equal(mix(1234567, 1), uint64(3203168211198807973)))
}

// TestAWorkersNumbersAreItsOwn: each process of each slot, and each of its
// streams, draws its own numbers; the same process of the same seed
// draws the same ones.
func TestAWorkersNumbersAreItsOwn(t *testing.T) {
	t.Parallel()
	first := func(seed int64, slot, start int, stream uint64) uint64 {
		return workerRand(seed, slot, start, stream).Uint64()
	}
	base := first(9, 1, 2, streamPause)
	assert.Check(t, cmp.Equal(first(9, 1, 2, streamPause), base), "the same process draws again")
	for name, other := range map[string]uint64{
		"another seed":           first(10, 1, 2, streamPause),
		"another slot":           first(9, 2, 2, streamPause),
		"another start":          first(9, 1, 3, streamPause),
		"another stream":         first(9, 1, 2, streamPick),
		"slot and start swapped": first(9, 2, 1, streamPause),
	} {
		assert.Check(t, other != base, "%s draws the same numbers", name)
	}
}

// perMille returns how many of n are per thousand, and the bound a
// rate must keep within: five standard deviations of a count of n
// draws at the odds want per mille. A count one per mille off the odds
// is further than that for the n the tests below draw.
func perMille(count, n int, want int) (got, slack float64) {
	p := float64(want) / 1000
	return float64(count) * 1000 / float64(n), 5 * math.Sqrt(p*(1-p)/float64(n)) * 1000
}

// TestMessagesFailAtThePlansOdds: of the messages, 20 per mille (chapter
// 9's seed-9 table: 6 of 400 always, 10 twice, 33 once) fail on
// every attempt, 30 on the first two and 80 on the first; the others
// never. failures says "every attempt" with one more failure than the
// retry budget, so that such a message ends DEAD.
func TestMessagesFailAtThePlansOdds(t *testing.T) {
	t.Parallel()
	assert.Equal(t, failsAlways, mailbox.MaxRetries+1, "failures of a message that always fails")
	const n = 2_000_000
	counts := map[int]int{}
	for i := 1; i <= n; i++ {
		counts[failures(31, i)]++
	}
	for _, tc := range []struct {
		failures, perMille int
		name               string
	}{{failsAlways, 20, "always"}, {2, 30, "twice"}, {1, 80, "once"}, {0, 870, "never"}} {
		got, slack := perMille(counts[tc.failures], n, tc.perMille)
		assert.Check(t, math.Abs(got-float64(tc.perMille)) < slack, "messages that fail %s: %.2f per mille; want %d", tc.name, got, tc.perMille)
	}
	assert.Equal(t, len(counts), 4, "kinds of message: %v", counts)
}

// TestStepsPauseAtThePlansOdds: of the claims a worker wins, 30 per mille
// (chapter 9: three in a hundred) pause past the lease, for one and a
// half to four leases, and 100 per mille (one in ten) within it, for at
// most four fifths of a lease; a quarter of the pauses claim again, and
// a claim without a pause never does.
func TestStepsPauseAtThePlansOdds(t *testing.T) {
	t.Parallel()
	const wantPast, wantWithin, wantRenew = 30, 100, 250 // per mille
	const leaseMs, n = 1000, 2_000_000
	s := steps{r: rand.New(rand.NewPCG(7, streamPause))}
	var past, within, renewed int
	minPast, maxPast, maxWithin := int64(math.MaxInt64), int64(0), int64(0)
	for range n {
		st := s.next(leaseMs)
		switch {
		case st.PastLease:
			past++
			minPast, maxPast = min(minPast, st.PauseMs), max(maxPast, st.PauseMs)
		case st.PauseMs > 0:
			within++
			maxWithin = max(maxWithin, st.PauseMs)
		case st.Renew:
			t.Fatalf("a step claims again without pausing: %+v", st)
		}
		if st.Renew {
			renewed++
		}
	}
	got, slack := perMille(past, n, wantPast)
	assert.Check(t, math.Abs(got-wantPast) < slack, "pauses past the lease: %.2f per mille; want %d", got, wantPast)
	// A pause within the lease shorter than a millisecond is no pause:
	// one in 800 of them, under a 1000 ms lease.
	got, slack = perMille(within, n, wantWithin)
	assert.Check(t, math.Abs(got-wantWithin) < slack, "pauses within the lease: %.2f per mille; want %d", got, wantWithin)
	got, slack = perMille(renewed, past+within, wantRenew)
	assert.Check(t, math.Abs(got-wantRenew) < slack, "pauses that claim again: %.2f per mille; want %d", got, wantRenew)
	// Over so many draws the pauses reach their bounds to within 1%.
	assert.Check(t, minPast >= 1500 && minPast < 1510, "the shortest pause past a lease of %d ms: %d ms", leaseMs, minPast)
	assert.Check(t, maxPast <= 4000 && maxPast > 3990, "the longest pause past a lease of %d ms: %d ms", leaseMs, maxPast)
	assert.Check(t, maxWithin <= 800 && maxWithin > 790, "the longest pause within a lease of %d ms: %d ms", leaseMs, maxWithin)
}

// TestEvenAOneMillisecondLeaseIsPausedPast: a pause past the lease is
// rounded up, so under the shortest lease it still outlasts the lease;
// a pause within that lease rounds down to none.
func TestEvenAOneMillisecondLeaseIsPausedPast(t *testing.T) {
	t.Parallel()
	s := steps{r: rand.New(rand.NewPCG(7, streamPause))}
	pastSeen := false
	for range 10_000 {
		st := s.next(1)
		switch {
		case st.PastLease && (st.PauseMs < 2 || st.PauseMs > 4):
			t.Fatalf("a pause past a 1 ms lease of %d ms; want 2 to 4", st.PauseMs)
		case st.PastLease:
			pastSeen = true
		case st.PauseMs != 0:
			t.Fatalf("a pause within a 1 ms lease of %d ms", st.PauseMs)
		}
	}
	assert.Check(t, pastSeen, "no pause past the lease in 10,000 steps")
}

// TestAStepDrawsThreeNumbersWhateverItDecides: every step draws the same
// three numbers, so the n-th claim's step is the same in every run of a
// seed, whatever the steps before it decided.
func TestAStepDrawsThreeNumbersWhateverItDecides(t *testing.T) {
	t.Parallel()
	s := steps{r: rand.New(rand.NewPCG(3, streamPause))}
	ref := rand.New(rand.NewPCG(3, streamPause))
	// Enough steps that a draw landing on a boundary of the odds comes up.
	for i := range 300_000 {
		got := s.next(40)
		kind, length, renew := ref.IntN(1000), ref.Float64(), ref.IntN(1000)
		if want := stepFor(kind, length, renew, 40); got != want {
			t.Fatalf("step %d is %+v; the draws %d, %v and %d per mille decide %+v", i, got, kind, length, renew, want)
		}
		if i%1000 == 0 {
			assert.Equal(t, s.r.Uint64(), ref.Uint64(), "the numbers after step %d", i)
		}
	}
}

// TestAMessagesFailuresOnEachSideOfTheOdds: a message's number per mille
// decides how often it fails, on the exact boundaries of the odds: below
// 20 always, below 50 twice, below 130 once, from 130 on never.
func TestAMessagesFailuresOnEachSideOfTheOdds(t *testing.T) {
	t.Parallel()
	for u, want := range map[uint64]int{0: failsAlways, 19: failsAlways, 20: 2, 49: 2, 50: 1, 129: 1, 130: 0, 999: 0} {
		assert.Check(t, cmp.Equal(failuresAt(u), want), "failures of a message numbered %d per mille", u)
	}
}

// TestAStepOnEachSideOfTheOdds: the first draw, per mille, decides the
// pause on the exact boundaries (below 30 past the lease, below 130
// within it, from 130 on none); the third decides the renewal of a
// pause (below 250); a claim without a pause is never renewed.
func TestAStepOnEachSideOfTheOdds(t *testing.T) {
	t.Parallel()
	const leaseMs, length = 1000, 0.5
	past := step{PauseMs: 2750, PastLease: true}
	within := step{PauseMs: 400}
	for _, tc := range []struct {
		kind, renew int
		want        step
	}{
		{0, 999, past}, {29, 999, past}, {30, 999, within}, {129, 999, within}, {130, 999, step{}}, {999, 0, step{}},
		{29, 249, step{PauseMs: 2750, PastLease: true, Renew: true}}, {29, 250, past},
		{129, 249, step{PauseMs: 400, Renew: true}}, {129, 250, within},
		{130, 0, step{}},
	} {
		got := stepFor(tc.kind, length, tc.renew, leaseMs)
		assert.Check(t, cmp.Equal(got, tc.want), "the step of draws %d per mille and %d per mille to renew", tc.kind, tc.renew)
	}
}

// TestAPausesLengthSpansItsRange: the second draw, from 0 to just under
// 1, spans a pause past the lease from one and a half leases to four, and
// a pause within it from none to four fifths; a pause within the lease
// too short to last a millisecond is none, and is not renewed.
func TestAPausesLengthSpansItsRange(t *testing.T) {
	t.Parallel()
	const leaseMs = 1000
	for _, tc := range []struct {
		kind   int
		length float64
		want   int64
	}{{0, 0, 1500}, {0, 0.999999, 4000}, {30, 0, 0}, {30, 0.999999, 799}, {30, 0.5, 400}} {
		got := stepFor(tc.kind, tc.length, 0, leaseMs)
		assert.Check(t, cmp.Equal(got.PauseMs, tc.want), "the pause of kind %d per mille and length %v", tc.kind, tc.length)
		assert.Check(t, got.Renew == (tc.want > 0), "a pause of %d ms renewed: %v", got.PauseMs, got.Renew)
	}
}

// TestWhichKillsKeepTheirNameIsDrawn: the half of the kills whose process
// comes back under its own name is drawn from the seed, not always the
// first half: over a hundred seeds the first of two kills keeps its name
// in some plans and not in others, about as often.
func TestWhichKillsKeepTheirNameIsDrawn(t *testing.T) {
	t.Parallel()
	kept := 0
	for seed := range int64(100) {
		p := newPlan(seed, 2, 100, 2, 40)
		if p.Kills[0].RestartAs == p.Kills[0].Worker {
			kept++
		}
	}
	assert.Check(t, kept >= 25 && kept <= 75, "the first kill kept its name in %d of 100 plans", kept)
}

// TestAOneMillisecondPauseMayBeRenewed: the shortest pause, 1 ms, is
// renewed at the same odds as a longer one.
func TestAOneMillisecondPauseMayBeRenewed(t *testing.T) {
	t.Parallel()
	got := stepFor(pausePastPerMille, 0.0125, 0, 100)
	assert.Check(t, cmp.Equal(got, step{PauseMs: 1, Renew: true}), "a pause within a lease of 100 ms, a fraction 0.0125 of four fifths of it")
}
