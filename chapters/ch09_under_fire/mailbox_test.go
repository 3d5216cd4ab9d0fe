package underfire

// This file holds the mailbox's model-based tests: a fixed set of seeded
// random sequences, the stored regression cases, and the fuzz target.

import (
	"fmt"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/mailbox"
)

// mailboxLeases are the leases the seeded runs take in turn: chapter 3's
// 15 minutes, short ones that end all the time, and chapter 2's claims
// that never expire.
var mailboxLeases = []int64{15, 5, 1, mailbox.NoLease}

// The seeded run: mailboxSeeds sequences of mailboxSteps steps each.
const (
	mailboxSeeds = 16
	mailboxSteps = 100
)

// TestMailboxAgreesWithModel: random sequences of claims, completions and
// dead-letters, from ordinary and oddly named owners, on known and unknown
// ids, at times aimed at the leases' ends and sometimes going backwards.
// After every step the mailbox's answer (refusal reason and holder
// included), the message's committed row and the token counter must be
// what model.Mailbox says.
func TestMailboxAgreesWithModel(t *testing.T) {
	t.Parallel()
	start, total := time.Now(), 0
	for seed := range mailboxSeeds {
		lease := mailboxLeases[seed%len(mailboxLeases)]
		c := generateMailbox(newSeeded(uint64(seed), mailboxSteps), lease, false)
		total += checkMailbox(t, c, fmt.Sprintf("seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// The overtaking run: mailboxOvertakeSeeds sequences of
// mailboxOvertakeSteps steps each, about a third of them overtaken.
const (
	mailboxOvertakeSeeds = 8
	mailboxOvertakeSteps = 60
)

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
	start, total := time.Now(), 0
	for seed := range mailboxOvertakeSeeds {
		lease := mailboxLeases[seed%len(mailboxLeases)]
		c := generateMailbox(newSeeded(uint64(1000+seed), mailboxOvertakeSteps), lease, true)
		total += checkMailbox(t, c, fmt.Sprintf("overtaking seed %d, after %d steps of earlier seeds", seed, total))
	}
	took := time.Since(start)
	t.Logf("%d steps in %v: %.0f steps/s", total, took.Round(time.Millisecond), float64(total)/took.Seconds())
}

// TestMailboxRegressionCases runs every case kept under testdata/mailbox:
// sequences a shrink once printed, each saved because it catches a mistake.
func TestMailboxRegressionCases(t *testing.T) {
	t.Parallel()
	for name, text := range storedCases(t, "mailbox") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := parseMailboxCase(text)
			assert.NilError(t, err, "testdata/mailbox/%s.case", name)
			checkMailbox(t, c, "testdata/mailbox/"+name+".case")
		})
	}
}

// FuzzMailboxModel draws the sequence from the fuzzer's bytes: the first
// picks the lease, each later one a choice of the generator. Run it for as
// long as you like. Every input builds fresh SQLite files, and SQLite is so
// much code that almost every input reaches some new part of it, so keep
// the fuzzer from spending its default minute shrinking each one:
//
//	go test -run '^$' -fuzz=FuzzMailboxModel -fuzztime=60s -fuzzminimizetime=10x ./chapters/ch09_under_fire/
func FuzzMailboxModel(f *testing.F) {
	for seed := range 4 {
		f.Add(seedBytes(uint64(seed), 300))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		lease := mailboxLeases[int(data[0])%len(mailboxLeases)]
		checkMailbox(t, generateMailbox(newFuzzBytes(data[1:]), lease, false), "this fuzz input")
	})
}

// checkMailbox replays c and returns how many steps ran. If the mailbox
// and the model disagree it shrinks the sequence and fails tb with the
// short one, printed so it can be kept as a regression case.
func checkMailbox(tb testing.TB, c mailboxCase, from string) int {
	tb.Helper()
	ran, d := replayMailbox(tb, c)
	if d == nil {
		return ran
	}
	disagrees := func(s []mailboxStep) bool {
		_, d := replayMailbox(tb, mailboxCase{lease: c.lease, steps: s})
		return d != nil
	}
	steps, minimal := shrink(c.steps[:ran], disagrees)
	steps = startAtZero(steps, disagrees)
	if _, shrunk := replayMailbox(tb, mailboxCase{lease: c.lease, steps: steps}); shrunk != nil {
		d = shrunk
		d.minimal = minimal
	}
	report(tb, "mailbox", fmt.Sprintf("%s, %s; it showed at step %d", from, c.header()[0], ran), ran, c.header(), *d)
	return ran
}

// seedBytes returns n bytes drawn from seed: a fixed fuzz input.
func seedBytes(seed uint64, n int) []byte {
	s := newSeeded(seed, 0)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(s.intn(256))
	}
	return b
}
