package underfire

// This file holds the session model-based tests: sequences rapid draws
// and shrinks, the stored regression cases, and the fuzz target.

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	"pgregory.net/rapid"

	"github.com/fencelab/fencelab/internal/session"
)

// sessionLeases are the leases rapid draws from: chapter 7's (where
// shrinking leads), a host lease shorter than the session's, and leases of
// one tick.
var sessionLeases = []session.Leases{{Session: 15, Host: 10}, {Session: 4, Host: 6}, {Session: 1, Host: 1}}

// The lengths of the sessions' sequences, in rounds of about 30 steps
// (drawSteps): with 10 checks, some 2,400 steps in the plain run (the
// seeded run of earlier editions took 24 x 100), some 600 in the
// overtaking one (9 x 60).
const (
	sessionRounds         = 8
	sessionOvertakeRounds = 2
)

// TestSessionsAgreeWithModel: random sequences of session claims, host
// lease renewals and finishes presenting the caller's incarnation or
// another, from ordinary and oddly named hosts. After every step the
// answer (refusal reason and the row it shows included), the session's
// committed row and its completions must be what model.Sessions says.
func TestSessionsAgreeWithModel(t *testing.T) {
	t.Parallel()
	checkSteps(t, sessionProperty(false, sessionRounds))
}

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
	checkSteps(t, sessionProperty(true, sessionOvertakeRounds))
}

// TestSessionRegressionCases runs every case kept under testdata/session.
func TestSessionRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "session") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseSessionCase(text)
			assert.NilError(t, err, "testdata/session/%s.case", name)
			checkSession(t, t, c, "testdata/session/"+name+".case")
		})
	}
}

// FuzzSessionModel draws the sequence from the fuzzer's bytes, through
// rapid: the same property as TestSessionsAgreeWithModel's, fuzzRounds
// long.
//
//	go test -run '^$' -fuzz=FuzzSessionModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzSessionModel(f *testing.F) {
	addFuzzSeeds(f, 310, 3)
	f.Fuzz(rapid.MakeFuzz(sessionProperty(false, fuzzRounds).fuzz()))
}

// sessionProperty draws leases and a sequence of rounds rounds, and
// replays it.
func sessionProperty(overtake bool, rounds int) property {
	return func(t *rapid.T) int {
		c := generateSession(t, choose(t, "leases", sessionLeases...), overtake, rounds)
		return checkSession(rapidTB{t: t}, t, c, "drawn by rapid")
	}
}

// checkSession replays c and returns how many steps ran. If the mechanism
// and the model disagree it fails fail with the steps up to the one where
// they did.
func checkSession(tb testing.TB, fail failer, c sessionCase, from string) int {
	tb.Helper()
	ran, d := replaySession(tb, c)
	if d != nil {
		report(fail, "session", fmt.Sprintf("%s, %s", from, c.header()[0]), ran, c.header(), *d)
	}
	return ran
}
