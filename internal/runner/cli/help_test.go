package cli_test

import (
	"flag"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// TestCommandHelpListsItsFlagsAndExitsZero: `fencelab CMD -h` is asking,
// not misuse: it exits 0, prints nothing on stdout and no file, and its
// usage on stderr names the command, its summary and every flag with its
// value and default.
func TestCommandHelpListsItsFlagsAndExitsZero(t *testing.T) {
	code, stdout, stderr, left := run(t, "probe", "-h")
	assert.Equal(t, code, 0, "exit status of fencelab probe -h")
	assert.Equal(t, stdout, "", "help belongs on stderr")
	assert.Check(t, cmp.Len(left, 0), "help left files behind: %v", left)
	assert.Equal(t, stderr, `usage: fencelab probe [flags]

a command for the frame's tests

flags:
  -format json
    	output json (default "json")
  -keep
    	keep the temporary directory and print its path on stderr
  -n N
    	N from 1 to 3 (default 1)
`)
}

// TestUsageSaysHowToGetACommandsFlags: the list of commands ends by
// saying how to get one command's flags and what the output is.
func TestUsageSaysHowToGetACommandsFlags(t *testing.T) {
	_, _, stderr, _ := run(t, "help")
	assert.Equal(t, stderr, `usage: fencelab <command> [flags]

commands:
  probe        a command for the frame's tests
  drawing      a command that draws its run

Run 'fencelab <command> -h' for a command's flags. Output is one JSON document on
stdout, or with --format text or --format svg a drawing of the run, where a command has one.
`)
}

// TestAFlagWithNoNamedValueIsListedAsVALUE: a misuse message lists every
// flag with the name of its value; a flag whose usage names none is
// listed with VALUE, never with the flag package's lower-case "value".
func TestAFlagWithNoNamedValueIsListedAsVALUE(t *testing.T) {
	unnamed := []cli.Command{{Name: "bare", Summary: "a flag with no named value", New: func(fs *flag.FlagSet) cli.Experiment {
		n := 1
		nFlag.Var(fs, &n, "how many, from 1 to 3")
		return experiment{n: &n, dir: &lastDir}
	}}}
	var stdout, stderr strings.Builder
	code := cli.Main(t.Context(), unnamed, []string{"bare", "--bogus"}, &stdout, &stderr)
	assert.Equal(t, code, 2)
	assert.Check(t, cmp.Contains(stderr.String(), "(allowed: --format json, --keep, --n VALUE)"), "stderr %q", stderr.String())
}

// TestAnArgumentUpToSixtyFourCharactersIsEchoedWhole: a misuse message
// shortens an argument only past 64 characters: one of exactly 64 is
// repeated whole, one of 65 is cut to 63 and an ellipsis.
func TestAnArgumentUpToSixtyFourCharactersIsEchoedWhole(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{64, strings.Repeat("é", 64)}, {65, strings.Repeat("é", 63) + "…"}} {
		_, _, stderr, _ := run(t, strings.Repeat("é", tc.n))
		assert.Equal(t, stderr, `fencelab: unknown command "`+tc.want+`": want one of probe, drawing`+"\n", "an argument of %d characters", tc.n)
	}
}

// TestHelpCommandPrintsThatCommandsUsage: `fencelab help COMMAND` is the
// same question as `fencelab COMMAND -h`, for every command: the same
// usage on stderr (that command's, not the list of commands), nothing on
// stdout, exit 0.
func TestHelpCommandPrintsThatCommandsUsage(t *testing.T) {
	_, _, general, _ := run(t, "help")
	for _, cmd := range commands {
		t.Run(cmd.Name, func(t *testing.T) {
			_, _, asked, _ := run(t, cmd.Name, "-h")
			code, stdout, stderr, _ := run(t, "help", cmd.Name)
			assert.Equal(t, code, 0, "exit status of fencelab help %s", cmd.Name)
			assert.Equal(t, stdout, "", "help belongs on stderr")
			assert.Check(t, stderr != general, "fencelab help %s printed the list of commands; want %s's usage", cmd.Name, cmd.Name)
			assert.Equal(t, stderr, asked, "fencelab help %s; want what fencelab %s -h prints", cmd.Name, cmd.Name)
			assert.Check(t, cmp.Contains(stderr, "usage: fencelab "+cmd.Name+" [flags]"))
		})
	}
}

// TestHelpForNoSuchCommandIsMisuse: `fencelab help` about a command that
// does not exist, or about two, exits 2 with one line naming the
// commands there are.
func TestHelpForNoSuchCommandIsMisuse(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nosuch", []string{"help", "nosuch"}, `fencelab help: unknown command "nosuch": want one of probe, drawing`},
		{"two", []string{"help", "probe", "drawing"}, `fencelab help: unexpected argument "drawing": want at most one command, one of probe, drawing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr, _ := run(t, tc.args...)
			assert.Equal(t, code, 2, "exit status of fencelab %s", strings.Join(tc.args, " "))
			assert.Equal(t, stdout, "")
			assert.Equal(t, stderr, tc.want+"\n", "fencelab %s: want one line", strings.Join(tc.args, " "))
		})
	}
}
