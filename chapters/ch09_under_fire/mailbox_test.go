package underfire

// This file holds the mailbox's model-based tests: sequences rapid draws
// and shrinks, the stored regression cases, and the fuzz target.

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	"pgregory.net/rapid"

	"github.com/fencelab/fencelab/internal/mailbox"
)

// mailboxLeases are the leases rapid draws from: chapter 3's 15 minutes
// (where shrinking leads), short ones that end all the time, and chapter
// 2's claims that never expire.
var mailboxLeases = []int64{15, 5, 1, mailbox.NoLease}

// The lengths of the mailbox's sequences, in rounds of about 30 steps
// (drawSteps): with 10 checks, some 1,500 steps in the plain run (the
// seeded run of earlier editions took 16 x 100, and rapid's lengths vary), some 600 in the
// overtaking one (8 x 60).
const (
	mailboxRounds         = 5
	mailboxOvertakeRounds = 2
)

// TestMailboxAgreesWithModel: random sequences of claims, completions and
// dead-letters, from ordinary and oddly named owners, on known and unknown
// ids, at times aimed at the leases' ends and sometimes going backwards.
// After every step the mailbox's answer (refusal reason and holder
// included), the message's committed row and the token counter must be
// what model.Mailbox says.
func TestMailboxAgreesWithModel(t *testing.T) {
	t.Parallel()
	checkSteps(t, mailboxProperty(false, mailboxRounds))
}

// TestMailboxDecidesInsideItsTransactionWhenOvertaken: random sequences
// like TestMailboxAgreesWithModel's, where about one call in three is
// overtaken: it has read the clock, and it stops just before its
// transaction begins while the next step, from another owner and mostly
// on the same message, runs whole (overtake_test.go). After every step the
// answers, the rows and the token counter must be what model.Mailbox says
// with the overtaker first. A claim, completion or dead-letter that
// decided anything from a read made before its transaction answers from a
// row that has changed since; a token minted before it is smaller than
// the overtaker's, though its claim came later.
func TestMailboxDecidesInsideItsTransactionWhenOvertaken(t *testing.T) {
	t.Parallel()
	checkSteps(t, mailboxProperty(true, mailboxOvertakeRounds))
}

// TestMailboxRegressionCases runs every case kept under testdata/mailbox:
// sequences a failing run once printed, each saved because it catches a
// mistake.
func TestMailboxRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "mailbox") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseMailboxCase(text)
			assert.NilError(t, err, "testdata/mailbox/%s.case", name)
			checkMailbox(t, t, c, "testdata/mailbox/"+name+".case")
		})
	}
}

// FuzzMailboxModel draws the sequence from the fuzzer's bytes, through
// rapid: the same property as TestMailboxAgreesWithModel's, fuzzRounds
// long. Run it for as long as you like. Every input builds fresh SQLite
// files, and SQLite is so much code that almost every input reaches some
// new part of it, so keep the fuzzer from spending its default minute
// shrinking each one:
//
//	go test -run '^$' -fuzz=FuzzMailboxModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzMailboxModel(f *testing.F) {
	addFuzzSeeds(f, 0, 3)
	f.Fuzz(rapid.MakeFuzz(mailboxProperty(false, fuzzRounds).fuzz()))
}

// mailboxProperty draws a lease and a sequence of rounds rounds, and
// replays it.
func mailboxProperty(overtake bool, rounds int) property {
	return func(t *rapid.T) int {
		c := generateMailbox(t, choose(t, "lease", mailboxLeases...), overtake, rounds)
		return checkMailbox(rapidTB{t: t}, t, c, "drawn by rapid")
	}
}

// checkMailbox replays c and returns how many steps ran. If the mailbox
// and the model disagree it fails fail with the steps up to the one where
// they did, printed so they can be kept as a regression case.
func checkMailbox(tb testing.TB, fail failer, c mailboxCase, from string) int {
	tb.Helper()
	ran, d := replayMailbox(tb, c)
	if d != nil {
		report(fail, "mailbox", fmt.Sprintf("%s, %s", from, c.header()[0]), ran, c.header(), *d)
	}
	return ran
}
