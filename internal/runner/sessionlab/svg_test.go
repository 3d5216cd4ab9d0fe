package sessionlab

// The chapter draws the picture of a sound mechanism, which
// chapters/internal/pictures holds whole. A learner who weakens the
// mechanism draws it again, and the picture must then show what the
// ledger did, not what a sound one would have done. These tests draw runs
// a weakened mechanism could produce, made from a real run by changing
// its answers.

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// soundRun is the result of a real incarnation run.
func soundRun(t *testing.T) result {
	t.Helper()
	got, err := experiment{}.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
	assert.NilError(t, err)
	return got.(result)
}

// draw returns the picture of res, checked against testdata/NAME.svg
// (go test -update writes it).
func draw(t *testing.T, res result, name string) string {
	t.Helper()
	var b bytes.Buffer
	assert.NilError(t, experiment{}.SVG(&b, res))
	golden.Assert(t, b.String(), name+".svg")
	return b.String()
}

var committedOutcome = cli.Outcome{Result: "committed"}

func row(host string, inc, at int64) committed {
	return committed{Host: host, Incarnation: inc, Result: "order for table 4", FinishedAt: at}
}

// TestPictureOfAMechanismThatFencesNothing: when every finish commits,
// the picture shows each completion the ledger holds at the finish that
// wrote it (two at minute 22, one from each kiosk), and its note counts
// no refusal. A finish committed after its run's lease ended does not
// shorten that run's bar: only kiosk-b's finish, inside its lease,
// releases the session.
func TestPictureOfAMechanismThatFencesNothing(t *testing.T) {
	res := soundRun(t)
	res.Finishes[0].Outcome = committedOutcome
	res.Rehost.OldCallback.Outcome = committedOutcome
	res.ExpiredWithoutTakeover.Outcome = committedOutcome
	res.Committed = []committed{row(kioskA, 1, 22), row(kioskB, 2, 22), row(kioskA, 1, 31), row(kioskA, 3, 50)}

	doc := draw(t, res, "fences-nothing")

	assert.Check(t, cmp.Contains(doc, "Committed: kiosk-a under incarnation 1, kiosk-b under incarnation 2, "+
		"kiosk-a under incarnation 1, kiosk-a under incarnation 3. Refused: 0 of the 4 finishes."), "the note counts every completion and no refusal")
	for _, c := range res.Committed {
		title := "committed at minute " + itoa(c.FinishedAt) + ": " + c.Host + ", incarnation " + itoa(c.Incarnation)
		assert.Check(t, cmp.Contains(doc, title), "the completions lane shows the row %s wrote under incarnation %d at minute %d",
			c.Host, c.Incarnation, c.FinishedAt)
	}
	assert.Check(t, cmp.Equal(strings.Count(doc, "released by its finish at minute"), 1),
		"only a finish inside its run's lease releases the session")
	assert.Check(t, cmp.Contains(doc, "kiosk-b runs the session as incarnation 2: session lease from minute 20 until 35; released by its finish at minute 22"))
}

// TestPictureOfAFinishOnItsLeasesLastTick: kiosk-a's lease ends at
// minute 15. A finish committed at minute 14 releases the session there;
// one committed at minute 15 comes after the lease, and the bar still
// ends at 15.
func TestPictureOfAFinishOnItsLeasesLastTick(t *testing.T) {
	for _, tc := range []struct {
		minute   int64
		released bool
	}{{14, true}, {15, false}} {
		res := soundRun(t)
		res.Finishes[0].Minute = tc.minute
		res.Finishes[0].Outcome = committedOutcome
		res.Committed = []committed{row(kioskA, 1, tc.minute), row(kioskB, 2, 22)}

		doc := draw(t, res, "finish-at-minute-"+itoa(tc.minute))

		released := strings.Contains(doc, "session lease from minute 0 until 15; released by its finish at minute "+itoa(tc.minute))
		assert.Check(t, cmp.Equal(released, tc.released),
			"a finish committed at minute %d, kiosk-a's lease ending at 15: does it release the session?", tc.minute)
	}
}

// TestPictureOfARefusalThatCommitted: a mechanism that misreads its own
// verdict answers kiosk-a's late callback "refused" yet commits its row.
// The picture draws the answer it gave and the row the ledger holds, at
// that callback.
func TestPictureOfARefusalThatCommitted(t *testing.T) {
	res := soundRun(t)
	res.Committed = []committed{row(kioskA, 1, 22), row(kioskB, 2, 22)}

	doc := draw(t, res, "refusal-that-committed")

	assert.Check(t, cmp.Contains(doc, "refused: stale_incarnation"), "the callback's answer is drawn as given")
	assert.Check(t, cmp.Contains(doc, "committed at minute 22: kiosk-a, incarnation 1"),
		"the row kiosk-a's refused callback wrote is drawn: the ledger holds it")
	assert.Check(t, cmp.Contains(doc, "Committed: kiosk-a under incarnation 1, kiosk-b under incarnation 2. Refused: 3 of the 4 finishes."))
}

// TestPictureOfAMechanismThatRefusesEverything: when no finish commits,
// the completions lane stays empty and the note says so.
func TestPictureOfAMechanismThatRefusesEverything(t *testing.T) {
	res := soundRun(t)
	res.Finishes[1].Outcome = cli.Outcome{Result: cli.Refused, Reason: "session_lease_expired"}
	res.Committed = []committed{}

	doc := draw(t, res, "refuses-everything")

	assert.Check(t, cmp.Contains(doc, "Committed: nothing. Refused: 4 of the 4 finishes."))
	assert.Check(t, !strings.Contains(doc, "committed at minute"), "no completion is drawn when the ledger holds none")
	assert.Check(t, !strings.Contains(doc, "released by its finish"), "no refused finish releases the session")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestEveryMarkSaysItsMinuteOnHover: each mark's hover text names the
// minute of its call, which the axis, pushing close marks apart, does
// not show by position alone.
func TestEveryMarkSaysItsMinuteOnHover(t *testing.T) {
	var b bytes.Buffer
	assert.NilError(t, experiment{}.SVG(&b, soundRun(t)))
	marks := strings.Split(b.String(), `<g class="mark"><title>`)[1:]
	assert.Assert(t, len(marks) > 0, "the picture draws no marks")
	minute := regexp.MustCompile(`^[a-z-]+ at minute -?\d+: `)
	for _, m := range marks {
		title, _, _ := strings.Cut(m, "</title>")
		assert.Check(t, minute.MatchString(title), "the mark's hover text %q says the minute of its call", title)
	}
	assert.Check(t, cmp.Contains(b.String(), "<title>kiosk-a at minute 31: old callback, incarnation 1: refused: stale_incarnation</title>"),
		"the old callback's hover text says minute 31")
}
