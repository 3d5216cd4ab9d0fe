package cli_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// experiment is a configurable command for the frame's tests.
type experiment struct {
	n      *int
	dir    *string // where Run saw its temporary directory
	runErr error
}

// nFlag is the probe's one numeric flag.
var nFlag = cli.IntFlag{Name: "n", Min: 1, Max: 3}

func (e experiment) Validate() error { return nFlag.Check(*e.n) }

func (e experiment) Run(_ context.Context, env cli.Env) (any, error) {
	*e.dir = env.Dir
	if err := os.WriteFile(env.Dir+"/ledger.db", []byte("x"), 0o600); err != nil {
		return nil, err
	}
	return map[string]any{"command": "probe", "n": *e.n}, e.runErr
}

var (
	lastDir string
	failRun error
)

var commands = []cli.Command{{
	Name:    "probe",
	Summary: "a command for the frame's tests",
	New: func(fs *flag.FlagSet) cli.Experiment {
		n := 1
		nFlag.Var(fs, &n, "`N` from 1 to 3")
		return experiment{n: &n, dir: &lastDir, runErr: failRun}
	},
}}

// run calls cli.Main with a fresh TMPDIR and returns the exit status,
// stdout, stderr and what is left in TMPDIR afterwards.
func run(t *testing.T, args ...string) (int, string, string, []os.DirEntry) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var stdout, stderr bytes.Buffer
	code := cli.Main(context.Background(), commands, args, &stdout, &stderr)
	left, err := os.ReadDir(tmp)
	assert.NilError(t, err)
	return code, stdout.String(), stderr.String(), left
}

// TestMisuseExitsTwoWithOneLineAndNoFiles: every kind of misuse exits 2,
// prints exactly one line naming what is allowed, nothing on stdout, and
// creates no file.
func TestMisuseExitsTwoWithOneLineAndNoFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown-command", []string{"nope"}, `fencelab: unknown command "nope": want one of probe`},
		{"unknown-flag", []string{"probe", "--bogus"}, "fencelab probe: flag provided but not defined: -bogus (allowed: --format json, --keep, --n N)"},
		{"bad-value", []string{"probe", "--n", "x"}, `fencelab probe: invalid value "x" for flag -n`},
		{"out-of-range", []string{"probe", "--n", "4"}, "fencelab probe: --n 4 is out of range: want an integer from 1 to 3"},
		{"zero-is-a-number", []string{"probe", "--n", "0"}, "fencelab probe: --n 0 is out of range: want an integer from 1 to 3"},
		{"stray-argument", []string{"probe", "ledger.db"}, `fencelab probe: unexpected argument "ledger.db"`},
		{"text-not-drawn", []string{"probe", "--format", "text"}, `fencelab probe: --format "text" is not allowed: want one of json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr, left := run(t, tc.args...)
			assert.Equal(t, code, 2, "exit status of misuse %q", tc.args)
			assert.Equal(t, stdout, "", "misuse must print nothing on stdout")
			assert.Check(t, strings.HasPrefix(stderr, tc.want), "stderr %q; want it to start with %q", stderr, tc.want)
			assert.Equal(t, strings.Count(stderr, "\n"), 1, "misuse must print exactly one line, got %q", stderr)
			assert.Check(t, cmp.Len(left, 0), "misuse left files behind: %v", left)
		})
	}
}

// TestUsage: no command is misuse (2); help is not (0). Both list the
// commands on stderr and print nothing on stdout.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{{nil, 2}, {[]string{"help"}, 0}, {[]string{"-h"}, 0}, {[]string{"--help"}, 0}} {
		code, stdout, stderr, _ := run(t, tc.args...)
		assert.Equal(t, code, tc.want, "exit status of fencelab %q", tc.args)
		assert.Equal(t, stdout, "", "usage belongs on stderr")
		assert.Check(t, cmp.Contains(stderr, "probe"), "usage must list every command")
	}
}

// TestRunPrintsOneJSONDocumentAndCleansUp: a run that works exits 0,
// prints one indented JSON document and removes its temporary directory.
func TestRunPrintsOneJSONDocumentAndCleansUp(t *testing.T) {
	code, stdout, stderr, left := run(t, "probe", "--n=2")
	assert.Equal(t, code, 0, "stderr: %s", stderr)
	assert.Equal(t, stdout, "{\n  \"command\": \"probe\",\n  \"n\": 2\n}\n")
	assert.Check(t, cmp.Len(left, 0), "the run left its temporary directory behind: %v", left)
}

// TestKeepKeepsTheDirectoryAndSaysWhere: --keep leaves the directory with
// its database and names it on stderr.
func TestKeepKeepsTheDirectoryAndSaysWhere(t *testing.T) {
	code, _, stderr, left := run(t, "probe", "--keep")
	assert.Equal(t, code, 0)
	assert.Assert(t, cmp.Len(left, 1), "--keep must keep exactly the run's directory")
	assert.Check(t, cmp.Contains(stderr, "kept "+lastDir))
	_, err := os.Stat(lastDir + "/ledger.db")
	assert.NilError(t, err, "the kept directory must still hold the database")
}

// TestFailedExperimentExitsOneAndCleansUp: an experiment that fails exits
// 1 with its error on stderr, nothing on stdout, and no directory left.
func TestFailedExperimentExitsOneAndCleansUp(t *testing.T) {
	failRun = errors.New("worker 42 exited with status 3 before answering")
	t.Cleanup(func() { failRun = nil })
	code, stdout, stderr, left := run(t, "probe")
	assert.Equal(t, code, 1, "exit status of a failed experiment")
	assert.Equal(t, stdout, "", "a failed experiment prints no JSON")
	assert.Check(t, cmp.Contains(stderr, "worker 42 exited with status 3"))
	assert.Check(t, cmp.Len(left, 0), "a failed run left files behind: %v", left)
}

// TestFindingPrintsTheResultAndExitsOne: an experiment that ran to the
// end and found a violation exits 1, yet prints its result (the counts a
// person needs to read it), then the finding on stderr as one line, and
// removes its temporary directory.
func TestFindingPrintsTheResultAndExitsOne(t *testing.T) {
	failRun = cli.Findingf("the audit found 1 violation; the first: double completion: msg-1\nwas completed twice")
	t.Cleanup(func() { failRun = nil })
	code, stdout, stderr, left := run(t, "probe")
	assert.Equal(t, code, 1, "exit status of an experiment that found a violation")
	assert.Equal(t, stdout, "{\n  \"command\": \"probe\",\n  \"n\": 1\n}\n", "the result must still be printed")
	assert.Equal(t, stderr, "fencelab probe: the audit found 1 violation; the first: double completion: msg-1\\nwas completed twice\n",
		"the finding, as one line")
	assert.Check(t, cmp.Len(left, 0), "a run that found a violation left files behind: %v", left)
}

// TestNumbersArePlainDecimal: a numeric flag reads plain decimal digits
// and nothing else. What the flag package would read as octal, hex or
// binary, a sign, a separator or a leading zero is misuse (2, one line),
// never a different number.
func TestNumbersArePlainDecimal(t *testing.T) {
	for _, v := range []string{"010", "02", "0x2", "0X2", "0o2", "0b1", "+2", "-2", "1_0", " 2", "2 ", "2.0", "", "99999999999999999999"} {
		t.Run(strings.TrimSpace(v), func(t *testing.T) {
			code, stdout, stderr, left := run(t, "probe", "--n", v)
			assert.Equal(t, code, 2, "exit status of --n %q", v)
			want := fmt.Sprintf("fencelab probe: invalid value %q for flag -n: want a plain decimal integer from 1 to 3 (allowed: --format json, --keep, --n N)\n", v)
			assert.Equal(t, stderr, want)
			assert.Equal(t, stdout, "")
			assert.Check(t, cmp.Len(left, 0))
		})
	}
	for _, args := range [][]string{{"--n", "2"}, {"--n=2"}, {"-n", "2"}} {
		code, stdout, stderr, _ := run(t, append([]string{"probe"}, args...)...)
		assert.Equal(t, code, 0, "fencelab probe %q: %s", args, stderr)
		assert.Check(t, cmp.Contains(stdout, `"n": 2`), "fencelab probe %q", args)
	}
}

// TestLongArgumentsAreShortened: a misuse message repeats an offending
// argument cut to 64 characters, the last an ellipsis, wherever the
// argument goes (command, flag name, flag value, stray argument), so a
// 100,000-character argument still gives one short line. A newline in an
// argument cannot start a second line.
func TestLongArgumentsAreShortened(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	echoed := strings.Repeat("x", 63) + "…"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"command", []string{long}, `fencelab: unknown command "` + echoed + `"`},
		{"flag-name", []string{"probe", "--" + long}, "flag provided but not defined: -" + echoed + " (allowed:"},
		{"flag-name-with-value", []string{"probe", "--" + long + "=1"}, "flag provided but not defined: -" + echoed + " (allowed:"},
		{"flag-value", []string{"probe", "--n", long}, `invalid value "` + echoed + `" for flag -n`},
		{"flag-value-after-equals", []string{"probe", "--n=" + long}, `invalid value "` + echoed + `" for flag -n`},
		{"boolean-value", []string{"probe", "--keep=" + long}, `invalid boolean value "` + echoed + `" for -keep`},
		{"format", []string{"probe", "--format", long}, `--format "` + echoed + `" is not allowed`},
		{"stray-argument", []string{"probe", long}, `unexpected argument "` + echoed + `"`},
		{"newline", []string{"probe", "--a\nb"}, `flag provided but not defined: -a\nb (allowed:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr, left := run(t, tc.args...)
			assert.Equal(t, code, 2)
			assert.Equal(t, stdout, "")
			assert.Check(t, cmp.Contains(stderr, tc.want))
			assert.Equal(t, strings.Count(stderr, "\n"), 1, "want one line, got %q", stderr)
			assert.Check(t, len(stderr) < 400, "a misuse line of %d bytes; want a short one", len(stderr))
			assert.Check(t, cmp.Len(left, 0))
		})
	}
}

// drawing is an experiment that can also draw its result as SVG, unless
// its --flat flag leaves nothing to draw.
type drawing struct {
	flat    *bool
	drawErr error
}

func (drawing) Validate() error { return nil }

func (drawing) Run(context.Context, cli.Env) (any, error) {
	return map[string]any{"command": "drawing"}, nil
}

func (d drawing) SVG(w io.Writer, result any) error {
	if d.drawErr != nil {
		fmt.Fprint(w, "<svg>half a picture")
		return d.drawErr
	}
	_, err := fmt.Fprintf(w, "<svg>%v</svg>\n", result.(map[string]any)["command"])
	return err
}

func (d drawing) CheckFormat(format string) error {
	if format == "svg" && *d.flat {
		return cli.Usagef("--format svg: a --flat run has nothing to draw")
	}
	return nil
}

var (
	_ cli.SVGExperiment = drawing{}
	_ cli.FormatChecker = drawing{}
)

var failDraw error

func init() {
	commands = append(commands, cli.Command{
		Name:    "drawing",
		Summary: "a command that draws its run",
		New: func(fs *flag.FlagSet) cli.Experiment {
			return drawing{flat: fs.Bool("flat", false, "leave nothing to draw"), drawErr: failDraw}
		},
	})
}

// TestSVGFormatOnlyWhereThereIsAPicture: --format svg prints the drawing
// of a command that draws; a command that does not, or a run whose flags
// leave nothing to draw, is misuse (2, one line, nothing on stdout, no
// file), and the misuse line names svg among the formats where it is one.
func TestSVGFormatOnlyWhereThereIsAPicture(t *testing.T) {
	code, stdout, stderr, left := run(t, "drawing", "--format", "svg")
	assert.Equal(t, code, 0, "stderr: %s", stderr)
	assert.Equal(t, stdout, "<svg>drawing</svg>\n")
	assert.Check(t, cmp.Len(left, 0))

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not-drawn", []string{"probe", "--format", "svg"}, `fencelab probe: --format "svg" is not allowed: want one of json` + "\n"},
		{"unknown-format", []string{"drawing", "--format", "png"}, `fencelab drawing: --format "png" is not allowed: want one of json, svg` + "\n"},
		{"nothing-to-draw", []string{"drawing", "--flat", "--format", "svg"}, "fencelab drawing: --format svg: a --flat run has nothing to draw\n"},
		{"allowed-names-svg", []string{"drawing", "--bogus"}, "fencelab drawing: flag provided but not defined: -bogus (allowed: --flat, --format json|svg, --keep)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr, left := run(t, tc.args...)
			assert.Equal(t, code, 2, "exit status of misuse %q", tc.args)
			assert.Equal(t, stdout, "", "misuse must print nothing on stdout")
			assert.Equal(t, stderr, tc.want)
			assert.Check(t, cmp.Len(left, 0), "misuse left files behind: %v", left)
		})
	}
	// A flag that leaves nothing to draw is no misuse in JSON.
	code, stdout, _, _ = run(t, "drawing", "--flat")
	assert.Equal(t, code, 0)
	assert.Equal(t, stdout, "{\n  \"command\": \"drawing\"\n}\n")
}

// TestFailedDrawingPrintsNothing: a drawing that fails half-way exits 1
// with one line, and none of it reaches stdout.
func TestFailedDrawingPrintsNothing(t *testing.T) {
	failDraw = errors.New("lane x is not in the panel")
	t.Cleanup(func() { failDraw = nil })
	code, stdout, stderr, left := run(t, "drawing", "--format", "svg")
	assert.Equal(t, code, 1)
	assert.Equal(t, stdout, "", "a failed drawing must print nothing, not half a picture")
	assert.Equal(t, stderr, "fencelab drawing: write result: lane x is not in the panel\n")
	assert.Check(t, cmp.Len(left, 0))
}

// TestNumberFlagAcceptsItsBoundsAndNothingPast: a numeric flag's range is
// inclusive at both ends: --n 1 and --n 3 run, and the numbers one past
// them, 0 and 4, are misuse (2, one line naming the range, no file).
func TestNumberFlagAcceptsItsBoundsAndNothingPast(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int
	}{{"0", 2}, {"1", 0}, {"3", 0}, {"4", 2}} {
		t.Run(tc.value, func(t *testing.T) {
			code, stdout, stderr, left := run(t, "probe", "--n", tc.value)
			assert.Equal(t, code, tc.want, "exit status of --n %s, the range being 1 to 3 (stderr %q)", tc.value, stderr)
			assert.Check(t, cmp.Len(left, 0), "--n %s left files behind: %v", tc.value, left)
			if tc.want == 0 {
				assert.Check(t, cmp.Contains(stdout, `"n": `+tc.value), "the result of --n %s", tc.value)
				return
			}
			assert.Check(t, cmp.Contains(stderr, "want an integer from 1 to 3"), "misuse message for --n %s", tc.value)
		})
	}
}
