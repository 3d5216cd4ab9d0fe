package torturelab

import (
	"context"
	"errors"
	"flag"
	"io"
	"strconv"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// parsed returns the torture command's flags after parsing args and
// validating them.
func parsed(t *testing.T, args ...string) (*flags, error) {
	t.Helper()
	fs := flag.NewFlagSet("torture", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := newFlags(fs)
	assert.NilError(t, fs.Parse(args))
	return f, f.Validate()
}

// TestTortureDefaultsAreTheContracts: without flags a run has the
// defaults internal/runner/CONTRACT.md gives: 8 processes, 2000
// messages, 20 kills, leases of 40 ms, the mailbox's own lock.
func TestTortureDefaultsAreTheContracts(t *testing.T) {
	t.Parallel()
	f, err := parsed(t)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(f.processes, 8))
	assert.Check(t, cmp.Equal(f.messages, 2000))
	assert.Check(t, cmp.Equal(f.kills, 20))
	assert.Check(t, cmp.Equal(f.leaseMs, 40))
	assert.Check(t, cmp.Equal(f.lock, lockMailbox))
	assert.Check(t, cmp.Equal(f.fence, fenceOn))
}

// TestTheSeedsHelpAndParserAgree: the help calls the seed a non-negative
// decimal integer, and the parser takes 0 and refuses a negative seed,
// whichever way it is written.
func TestTheSeedsHelpAndParserAgree(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("torture", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	newFlags(fs)
	assert.Check(t, cmp.Contains(fs.Lookup("seed").Usage, "a non-negative decimal integer"))
	assert.Check(t, cmp.Equal(seedFlag.Min, 0), "the lowest seed the range admits")
	for _, args := range [][]string{{"--seed", "-5"}, {"--seed=-1"}} {
		fs := flag.NewFlagSet("torture", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		newFlags(fs)
		assert.Check(t, fs.Parse(args) != nil, "%v: a negative seed must be refused", args)
	}
	f, err := parsed(t, "--seed", "0")
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(f.seed, 0))
}

// TestTheFenceIsOnOrOffAndOffNeedsEtcd: --fence takes on or off; off
// weakens the fenced store of an etcd run, and a mailbox run, which has
// none, refuses it as misuse.
func TestTheFenceIsOnOrOffAndOffNeedsEtcd(t *testing.T) {
	t.Parallel()
	var usage *cli.UsageError
	for _, tc := range []struct {
		name   string
		args   []string
		misuse bool
	}{
		{"etcd-off", []string{"--lock", lockEtcd, "--fence", fenceOff}, false},
		{"etcd-on", []string{"--lock", lockEtcd, "--fence", fenceOn}, false},
		{"mailbox-on", []string{"--fence", fenceOn}, false},
		{"mailbox-off", []string{"--fence", fenceOff}, true},
		{"etcd-maybe", []string{"--lock", lockEtcd, "--fence", "maybe"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parsed(t, tc.args...)
			assert.Check(t, cmp.Equal(errors.As(err, &usage), tc.misuse), "Validate(%v) = %v", tc.args, err)
		})
	}
}

// TestTheCheckIsLinearizableAndThePageNeedsIt: --check knows one word,
// linearizable, with either lock (both runs record a history of their
// workers' calls), and --visualize draws what a check found, so it needs
// --check. Each refusal says why.
func TestTheCheckIsLinearizableAndThePageNeedsIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string // the refusal, or "" for a run
	}{
		{"etcd", []string{"--lock", lockEtcd, "--check", "linearizable"}, ""},
		{"etcd-off-page", []string{"--lock", lockEtcd, "--fence", fenceOff, "--check", "linearizable", "--visualize", "h.html"}, ""},
		{"no-check", []string{"--lock", lockEtcd}, ""},
		{"mailbox", []string{"--check", "linearizable"}, ""},
		{"mailbox-page", []string{"--check", "linearizable", "--visualize", "h.html"}, ""},
		{"mailbox-page-without-check", []string{"--visualize", "h.html"}, "--visualize needs --check linearizable: the page draws what the check found"},
		{"unknown-word", []string{"--lock", lockEtcd, "--check", "serializable"}, `--check "serializable" is not allowed: want one of linearizable`},
		{"page-without-check", []string{"--lock", lockEtcd, "--visualize", "h.html"}, "--visualize needs --check linearizable: the page draws what the check found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parsed(t, tc.args...)
			if tc.want == "" {
				assert.NilError(t, err)
				return
			}
			var usage *cli.UsageError
			assert.Check(t, errors.As(err, &usage), "Validate(%v) = %v: want misuse", tc.args, err)
			assert.Check(t, cmp.ErrorContains(err, tc.want))
		})
	}
}

// TestASeedGivenIsKeptAndNoneIsDrawn: --seed fixes the plan, 0 included;
// without it every run draws its own seed, whatever other flags say.
func TestASeedGivenIsKeptAndNoneIsDrawn(t *testing.T) {
	t.Parallel()
	for _, seed := range []string{"0", "9", "11706"} {
		f, err := parsed(t, "--seed", seed, "--kills", "3")
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(strconv.Itoa(f.seed), seed), "the seed of a run given --seed %s", seed)
	}
	seen := map[int]bool{}
	for range 5 {
		f, err := parsed(t, "--kills", "3")
		assert.NilError(t, err)
		seen[f.seed] = true
	}
	assert.Check(t, len(seen) > 1, "five runs without --seed drew %v", seen)
}

// TestAnUnknownLockIsMisuse: --lock takes mailbox or etcd, nothing else.
func TestAnUnknownLockIsMisuse(t *testing.T) {
	t.Parallel()
	_, err := parsed(t, "--lock", "zookeeper")
	assert.ErrorContains(t, err, "zookeeper")
	for _, lock := range []string{lockMailbox, lockEtcd} {
		_, err := parsed(t, "--lock", lock)
		assert.Check(t, err, "--lock %s", lock)
	}
}

// TestWithoutEtcdARunOnEtcdIsHandedOn: a fencelab built without etcd
// does not run --lock etcd itself; it hands the run to the etcd
// companion, and a hand-off that fails is the run's error, not an empty
// result.
func TestWithoutEtcdARunOnEtcdIsHandedOn(t *testing.T) {
	t.Parallel()
	// A small run, in a folder of the test's own, in case the lock's
	// choice goes wrong and a run starts here after all.
	f, err := parsed(t, "--lock", lockEtcd, "--processes", "2", "--messages", "1", "--kills", "0")
	assert.NilError(t, err)
	failed := errors.New("the companion could not be built")
	handedOn := 0
	f.handOff = func(context.Context, cli.Env) error {
		handedOn++
		return failed
	}

	result, err := f.Run(t.Context(), cli.Env{Dir: t.TempDir(), Stderr: io.Discard})

	assert.Check(t, cmp.Equal(handedOn, 1), "a run on etcd without etcd linked was handed on %d times", handedOn)
	assert.Check(t, cmp.ErrorIs(err, failed), "a hand-off that failed: the run's error")
	assert.Check(t, cmp.Nil(result), "a hand-off that failed: the run's result")
}
