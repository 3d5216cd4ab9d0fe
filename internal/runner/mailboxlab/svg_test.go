package mailboxlab

// The chapters draw the pictures of a sound mailbox, which
// chapters/internal/pictures holds whole. A learner who weakens the
// mailbox draws them again, and a picture must then show what the ledger
// answered, not what a sound one would have answered. These tests draw
// runs a weakened mailbox could produce, made from a real run by changing
// its answers.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestMain lets this test binary be a mailbox worker: naive and claim
// start the runner again as their workers, and under test the runner is
// this binary.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "fencelab" {
		os.Exit(worker.Main(context.Background(), []worker.Role{workerRole}, os.Stderr))
	}
	os.Exit(m.Run())
}

// run returns the result of a real run of exp.
func run[R any](t *testing.T, exp cli.Experiment) R {
	t.Helper()
	got, err := exp.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
	assert.NilError(t, err)
	return got.(R)
}

// draw returns the picture of res drawn by exp, checked against
// testdata/NAME.svg (go test -update writes it).
func draw(t *testing.T, exp cli.SVGExperiment, res any, name string) string {
	t.Helper()
	var b bytes.Buffer
	assert.NilError(t, exp.SVG(&b, res))
	golden.Assert(t, b.String(), name+".svg")
	return b.String()
}

// contains checks that the picture of a run where what happened says
// every one of want.
func contains(t *testing.T, doc, what string, want ...string) {
	t.Helper()
	for _, w := range want {
		assert.Check(t, strings.Contains(doc, w), "the picture of a run where %s does not say %q", what, w)
	}
}

// TestPictureOfABrokenCompareAndSet: when both claims win and every
// token completes, each worker's bar ends at its own first accepted
// complete, and a worker that never completes holds msg-1 to the end.
func TestPictureOfABrokenCompareAndSet(t *testing.T) {
	exp := &claimExperiment{newRaceFlags(flag.NewFlagSet("claim", flag.ContinueOnError))}
	res := run[claimResult](t, exp)
	res.Claims[1].Outcome, res.Claims[1].Token = cli.Outcome{Result: "claimed"}, res.Claims[0].Token+1
	res.Completes[0].Outcome = cli.Outcome{Result: "completed"}

	doc := draw(t, exp, res, "claim-both-win")
	contains(t, doc, "both claims won and the never-issued token completed",
		"worker-a holds msg-1 from step 1 to step 3: token 1",
		"worker-b holds msg-1 from step 2 to step 5: token 2")
}

// TestPictureOfAWeakenedLease draws msg-2's story as weakened leases
// would tell it.
func TestPictureOfAWeakenedLease(t *testing.T) {
	sound := run[leaseResult](t, leaseExperiment{})
	for _, tc := range []struct {
		name   string
		weaken func(*leaseResult)
		want   []string
		not    []string // what it must not say
	}{{
		// The lease never expires, and complete checks no token: worker-b
		// is refused at minute 20, worker-a's claim at 25 is still its
		// own, and worker-b's complete, with no token at all, goes
		// through. Nothing was taken over, so worker-a never stalled.
		name: "lease-never-expires",
		weaken: func(r *leaseResult) {
			a := r.Timeline[0]
			r.Timeline[3] = leaseEvent{Minute: 20, Worker: workerB, Result: "refused", Holder: workerA, Reason: "claim_held"}
			r.Timeline[4] = leaseEvent{Minute: 25, Worker: workerA, Result: "still_mine", Token: a.Token}
			r.Completes[0].Token, r.Completes[0].Outcome = a.Token, cli.Outcome{Result: "completed"}
			r.Completes[1].Token, r.Completes[1].Outcome = 0, cli.Outcome{Result: "completed"}
		},
		want: []string{">complete, token 0<", "granted at minute 0 until 15; expired at minute 15"},
		not:  []string{"stalls from minute"},
	}, {
		// complete checks no token: worker-a's late complete, after its
		// lease, goes through, and its bar still ends at its expiry.
		name: "stale-complete-accepted",
		weaken: func(r *leaseResult) {
			r.Completes[0].Outcome = cli.Outcome{Result: "completed"}
		},
		want: []string{"granted at minute 0 until 15; expired at minute 15", "granted at minute 20 until 35; ended by its complete at minute 25"},
	}, {
		// worker-b's lease ends on the very minute of its complete: the
		// complete comes after the lease, which ended at its expiry.
		name: "complete-on-the-lease-end",
		weaken: func(r *leaseResult) {
			r.Timeline[3].ExpiresAt = r.Completes[1].at
		},
		want: []string{"granted at minute 20 until 25; expired at minute 25"},
	}, {
		// ...and one minute later, the complete is inside it.
		name: "complete-a-minute-before-the-lease-end",
		weaken: func(r *leaseResult) {
			r.Timeline[3].ExpiresAt = r.Completes[1].at + 1
		},
		want: []string{"granted at minute 20 until 26; ended by its complete at minute 25"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res := sound
			res.Timeline = append([]leaseEvent(nil), sound.Timeline...)
			res.Completes = append([]claimEvent(nil), sound.Completes...)
			tc.weaken(&res)
			doc := draw(t, leaseExperiment{}, res, "lease-"+tc.name)
			contains(t, doc, tc.name, tc.want...)
			for _, n := range tc.not {
				assert.Check(t, !strings.Contains(doc, n), "the picture of a run where %s says %q", tc.name, n)
			}
		})
	}
}

// TestPictureOfAnOldTokenThatCompletes: when worker-a's first token
// still completes after its own takeover, that complete ends the second
// lease, and the new token's complete changes nothing more.
func TestPictureOfAnOldTokenThatCompletes(t *testing.T) {
	res := run[leaseResult](t, leaseExperiment{})
	st := &res.SelfTakeover
	st.OldTokenComplete, st.oldReason = "completed", ""
	doc := draw(t, leaseExperiment{}, res, "lease-old-token-completes")
	contains(t, doc, "the old token completed",
		fmt.Sprintf("granted at minute %d until %d; ended by its complete at minute %d", st.SecondMinute, st.secondExpires, st.SecondMinute))
	assert.Check(t, strings.Count(doc, ">DONE · worker-a · token") == 1,
		"the picture of a run where both tokens completed draws the row going DONE once, at the first complete: %d times",
		strings.Count(doc, ">DONE · worker-a · token"))
}

// TestPictureOfAReportFromAStaleCopy: when worker-a's report under its
// old token goes through, the picture shows the row that report left.
func TestPictureOfAReportFromAStaleCopy(t *testing.T) {
	sound := run[deadLetterResult](t, deadLetterExperiment{})
	t.Run("report-accepted", func(t *testing.T) {
		res := sound
		sc := &res.StaleCopy
		sc.Verdict, sc.Reason = "retried", ""
		sc.StateAfter, sc.OwnerAfter, sc.RetryCountAfter, sc.tokenAfter = "NEW", "", 1, sc.CurrentToken
		doc := draw(t, deadLetterExperiment{}, res, "deadletter-stale-report-accepted")
		contains(t, doc, "the stale report went through",
			fmt.Sprintf(">NEW · token %d · 1 retry<", sc.CurrentToken), fmt.Sprintf(">fails: report, token %d<", sc.PresentedToken),
			"Afterwards: msg-4 is NEW, held by nobody, retry_count 1.")
	})
	t.Run("short-lease", func(t *testing.T) {
		// worker-b's lease ends inside the picture: its bar ends there,
		// not at the picture's edge.
		res := sound
		res.StaleCopy.currentUntil = res.StaleCopy.currentAt + 1
		draw(t, deadLetterExperiment{}, res, "deadletter-short-lease")
	})
}

// TestTheTakeoversMinuteHasATick: msg-4's panel labels the minute of
// worker-b's takeover on its axis, where worker-a's stale report is
// refused too, so a reader need not count it out from round ticks.
func TestTheTakeoversMinuteHasATick(t *testing.T) {
	res := run[deadLetterResult](t, deadLetterExperiment{})
	var b bytes.Buffer
	assert.NilError(t, deadLetterExperiment{}.SVG(&b, res))
	tick := fmt.Sprintf(`text-anchor="middle" fill="#1a1a1a">%d</text>`, res.StaleCopy.currentAt)
	assert.Assert(t, strings.Contains(b.String(), tick), "the takeover's minute %d has a tick", res.StaleCopy.currentAt)
}
