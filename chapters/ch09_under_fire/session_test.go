package underfire

// This file holds the session model-based tests: a fixed set of seeded
// random sequences, the stored regression cases, and the fuzz target.

import (
	"fmt"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/session"
)

// sessionLeases are the leases the seeded runs take in turn: chapter 7's,
// a host lease shorter than the session's, and leases of one tick.
var sessionLeases = []session.Leases{{Session: 15, Host: 10}, {Session: 4, Host: 6}, {Session: 1, Host: 1}}

// The seeded run: sessionSeeds sequences of sessionSteps steps each.
const (
	sessionSeeds = 24
	sessionSteps = 100
)

// TestSessionsAgreeWithModel: random sequences of session claims, host
// lease renewals and finishes presenting the caller's incarnation or
// another, from ordinary and oddly named hosts. After every step the
// answer (refusal reason and the row it shows included), the session's
// committed row and its completions must be what model.Sessions says.
func TestSessionsAgreeWithModel(t *testing.T) {
	t.Parallel()
	start, total := time.Now(), 0
	for seed := range sessionSeeds {
		leases := sessionLeases[seed%len(sessionLeases)]
		c := generateSession(newSeeded(uint64(200+seed), sessionSteps), leases, false)
		total += checkSession(t, c, fmt.Sprintf("seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// The overtaking run: sessionOvertakeSeeds sequences of
// sessionOvertakeSteps steps each, about a third of them overtaken.
const (
	sessionOvertakeSeeds = 9
	sessionOvertakeSteps = 60
)

// TestSessionsDecideInsideTheirTransactionsWhenOvertaken: random
// sequences like TestSessionsAgreeWithModel's, where about one call in
// three is overtaken: it has read the clock, and it stops just before its
// transaction begins while the next step, mostly on the same session,
// runs whole (overtake_test.go). After every step the answers, the
// session rows and their completions must be what model.Sessions says
// with the overtaker first. A claim that chose between renewal and
// takeover, or a finish that judged the leases, from rows read before its
// transaction answers from rows that have changed since.
func TestSessionsDecideInsideTheirTransactionsWhenOvertaken(t *testing.T) {
	t.Parallel()
	start, total := time.Now(), 0
	for seed := range sessionOvertakeSeeds {
		leases := sessionLeases[seed%len(sessionLeases)]
		c := generateSession(newSeeded(uint64(1200+seed), sessionOvertakeSteps), leases, true)
		total += checkSession(t, c, fmt.Sprintf("overtaking seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// TestSessionRegressionCases runs every case kept under testdata/session.
func TestSessionRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "session") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseSessionCase(text)
			assert.NilError(t, err, "testdata/session/%s.case", name)
			checkSession(t, c, "testdata/session/"+name+".case")
		})
	}
}

// FuzzSessionModel draws the sequence from the fuzzer's bytes: the first
// picks the leases, each later one a choice of the generator.
//
//	go test -run '^$' -fuzz=FuzzSessionModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzSessionModel(f *testing.F) {
	for seed := range 3 {
		f.Add(seedBytes(uint64(310+seed), 300))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		leases := sessionLeases[int(data[0])%len(sessionLeases)]
		checkSession(t, generateSession(newFuzzBytes(data[1:]), leases, false), "this fuzz input")
	})
}

// checkSession replays c and returns how many steps ran. If the mechanism
// and the model disagree it shrinks the sequence and fails tb with it.
func checkSession(tb testing.TB, c sessionCase, from string) int {
	tb.Helper()
	ran, d := replaySession(tb, c)
	if d == nil {
		return ran
	}
	disagrees := func(s []sessionStep) bool {
		_, d := replaySession(tb, sessionCase{leases: c.leases, steps: s})
		return d != nil
	}
	steps, minimal := shrink(c.steps[:ran], disagrees)
	steps = startAtZero(steps, disagrees)
	if _, shrunk := replaySession(tb, sessionCase{leases: c.leases, steps: steps}); shrunk != nil {
		d = shrunk
		d.minimal = minimal
	}
	report(tb, "session", fmt.Sprintf("%s, %s; it showed at step %d", from, c.header()[0], ran), ran, c.header(), *d)
	return ran
}
