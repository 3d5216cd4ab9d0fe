package actorlab

// The chapter draws the picture of a sound mechanism, which
// chapters/internal/pictures holds whole. A learner who weakens the
// mechanism draws it again, and the picture must then show what the
// processes were told, not what a sound mechanism would have told them.
// These tests draw runs a weakened mechanism could produce, made from a
// real run by changing its answers.

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestMain lets this test binary be process B: a run starts the runner
// again as a worker, and under test the runner is this binary.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "fencelab" {
		os.Exit(worker.Main(context.Background(), []worker.Role{workerRole}, os.Stderr))
	}
	os.Exit(m.Run())
}

// soundRun is the result of a real actors run (it starts process B).
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

// TestPictureOfAWeakenedMechanism: each part of the story, answered as a
// weakened mechanism would answer it, is drawn with the answer given.
func TestPictureOfAWeakenedMechanism(t *testing.T) {
	sound := soundRun(t)
	for _, tc := range []struct {
		name   string
		weaken func(*result)
		want   []string // what the picture must say
	}{{
		name: "lease-lets-b-in",
		weaken: func(r *result) {
			// The compare-and-set lets B take the lease A holds; A's
			// release is then refused.
			r.ActorLeaseCAS.ProcessBWhileAHolds = refusal{Result: "acquired"}
			r.ActorLeaseCAS.ProcessAReleased = false
		},
		want: []string{">acquire: acquired, while A holds it<", ">B took it from A<", ">release: refused<"},
	}, {
		name: "attempts-not-fenced",
		weaken: func(r *result) {
			r.ExecutionAttemptFencing.SecondAttempt = refusal{Result: "granted"}
			r.ExecutionAttemptFencing.StaleLeaseToken = refusal{Result: "granted", Token: r.ActorLeaseCAS.ProcessAAcquired.Token}
		},
		want: []string{">again, same lease: granted<", ">attempt asg-2, lease 1: granted<"},
	}, {
		name: "run-path-lets-b-run",
		weaken: func(r *result) {
			// B's run gets past the lease and its provider runs; A's run,
			// whose lease B took, fails.
			r.SecondProcessSameActor.Outcome, r.SecondProcessSameActor.Category = "completed", ""
			r.SecondProcessSameActor.ProviderInvoked = true
			r.FirstProcessAssignment.State = "FAILED"
		},
		want: []string{">run asg-4: completed, its provider ran<", ">provider returns: FAILED, lease released<"},
	}, {
		name: "refusal-names-b",
		weaken: func(r *result) {
			// B holds the lease when A is refused: the refusal names B.
			r.ActorLeaseCAS.ProcessBWhileAHolds.Holder = r.ProcessIDs[1]
		},
		want: []string{">acquire: refused: actor_lease_held by B<"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res := sound
			tc.weaken(&res)
			doc := draw(t, res, tc.name)
			for _, w := range tc.want {
				assert.Check(t, cmp.Contains(doc, w), "the picture of a run where %s", tc.name)
			}
		})
	}
}
