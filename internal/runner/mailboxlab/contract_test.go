package mailboxlab

// What internal/runner/CONTRACT.md says of these commands that their
// chapters' scripts do not check: the exact keys of a row, and misuse.

import (
	"encoding/json"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// TestARenewalRowSaysOnlyThatTheClaimIsStillMine: in the lease story's
// timeline, as the runner's contract shows it, worker-a's second claim at
// minute 5 is "still_mine" with its token and nothing more: no expiry,
// for a renewal does not move the lease's end, and no holder or reason,
// for nothing was refused.
func TestARenewalRowSaysOnlyThatTheClaimIsStillMine(t *testing.T) {
	got, err := leaseExperiment{}.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})
	assert.NilError(t, err)
	doc, err := json.Marshal(got)
	assert.NilError(t, err)
	var res struct {
		Timeline []map[string]any `json:"timeline"`
	}
	assert.NilError(t, json.Unmarshal(doc, &res))
	renewal := res.Timeline[1]
	assert.Check(t, cmp.Equal(renewal["result"], "still_mine"))
	var keys []string
	for k := range renewal {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	assert.Check(t, cmp.DeepEqual(keys, []string{"minute", "result", "token", "worker"}),
		"the renewal row of the lease story has keys %v", keys)
}

// TestCountsGoOnlyWithRace: --processes and --rounds size a race; told
// the two-worker story, naive and claim refuse either one as misuse.
func TestCountsGoOnlyWithRace(t *testing.T) {
	for _, cmd := range []cli.Command{Naive, Claim} {
		for _, args := range [][]string{{"--processes", "4"}, {"--rounds", "5"}} {
			fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
			exp := cmd.New(fs)
			assert.NilError(t, fs.Parse(args))
			assert.Check(t, cmp.ErrorContains(exp.Validate(), "--processes and --rounds go with --race"),
				"fencelab %s %s without --race", cmd.Name, strings.Join(args, " "))
		}
	}
}
