package runner_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// runSVG runs the runner in this process with args and --format svg, and
// returns its stdout; the run must succeed.
func runSVG(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Main(context.Background(), runner.Commands, append(args, "--format", "svg"), &stdout, &stderr)
	assert.Equal(t, code, 0, "fencelab %s --format svg: %s", strings.Join(args, " "), &stderr)
	return stdout.String()
}

// wellFormed fails the test unless doc is one well-formed XML document
// whose root is an <svg> element.
func wellFormed(t *testing.T, doc string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	roots, depth := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		assert.NilError(t, err, "the picture is not well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				assert.Equal(t, tok.Name.Local, "svg", "the root element")
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	assert.Equal(t, roots, 1, "a standalone SVG document has one root")
}

// wallClockSummary is the one command whose picture is not the same from
// run to run: torture's timing is the operating system's.
const wallClockSummary = "torture"

// carriedByTheCompanion are the commands this test binary cannot run: it
// links in no etcd, and they would hand themselves, and this process,
// over to the etcd companion (package companion). Their pictures are
// held to their runs where etcd is linked in: chapters/internal/pictures
// draws lockservice's again on every run and compares it with the
// committed file.
var carriedByTheCompanion = []string{"lockservice"}

// drawnByPorcupine is the command whose picture is not a timeline of its
// own: history's run is hundreds of calls, and its picture is
// porcupine's page of the checked history (--visualize).
const drawnByPorcupine = "history"

// TestEveryCommandDrawsItsRun: every runner command accepts --format svg
// (the recipe in package timeline's doc says how to add it), and draws
// only its own kind of result: handed anything else, it returns an error
// and writes nothing, rather than an empty or half-made picture.
func TestEveryCommandDrawsItsRun(t *testing.T) {
	type notAResult struct{}
	for _, c := range runner.Commands {
		if c.Name == drawnByPorcupine {
			continue
		}
		exp, ok := c.New(flag.NewFlagSet(c.Name, flag.ContinueOnError)).(cli.SVGExperiment)
		if !assert.Check(t, ok, "fencelab %s cannot draw its run: give it an SVG method (see the recipe in internal/runner/timeline)", c.Name) {
			continue
		}
		var drawn bytes.Buffer
		err := exp.SVG(&drawn, notAResult{})
		assert.Check(t, err != nil, "fencelab %s drew a result that is not its own without an error", c.Name)
		assert.Check(t, cmp.Equal(drawn.Len(), 0), "fencelab %s wrote part of a picture for a result that is not its own", c.Name)
	}
}

// TestEveryTimelineDrawsTheSamePictureTwice: every command with a
// timeline prints one well-formed SVG document for --format svg, and two
// runs with the same flags print the same bytes, although their pids,
// process identities and temporary directories differ: what changes from
// run to run stays out of the picture.
func TestEveryTimelineDrawsTheSamePictureTwice(t *testing.T) {
	runs := [][]string{{"fencing", "--case", "fence-rollback", "--units", "3"}}
	for _, c := range runner.Commands {
		if c.Name != wallClockSummary && c.Name != drawnByPorcupine && !slices.Contains(carriedByTheCompanion, c.Name) {
			runs = append(runs, []string{c.Name})
		}
	}
	for _, args := range runs {
		t.Run(strings.Join(args, "-"), func(t *testing.T) {
			t.Parallel()
			first := runSVG(t, args...)
			wellFormed(t, first)
			second := runSVG(t, args...)
			assert.Equal(t, second, first, "two runs of fencelab %s --format svg drew different pictures", strings.Join(args, " "))
		})
	}
}

// TestTortureDrawsASummary: the torture run, whose timing the operating
// system decides, draws one well-formed summary: a lane per worker slot
// and the audit's counts.
func TestTortureDrawsASummary(t *testing.T) {
	doc := runSVG(t, "torture", "--processes", "2", "--messages", "40", "--kills", "2", "--lease-ms", "5", "--seed", "11")
	wellFormed(t, doc)
	for _, want := range []string{">worker-a</text>", ">worker-b</text>", "Audit: double completions 0"} {
		assert.Check(t, cmp.Contains(doc, want))
	}
}

// TestRaceHasNoPicture: race mode counts rounds and has no order to
// draw, so --format svg with --race is misuse: exit 2, one line, nothing
// on stdout.
func TestRaceHasNoPicture(t *testing.T) {
	for _, cmd := range []string{"naive", "claim"} {
		var stdout, stderr bytes.Buffer
		code := cli.Main(context.Background(), runner.Commands, []string{cmd, "--race", "--format", "svg"}, &stdout, &stderr)
		assert.Equal(t, code, 2, "exit status of fencelab %s --race --format svg", cmd)
		assert.Equal(t, stdout.String(), "")
		assert.Equal(t, strings.Count(stderr.String(), "\n"), 1, "want one line, got %q", &stderr)
		assert.Check(t, cmp.Contains(stderr.String(), "--race has no order to draw"))
	}
}
