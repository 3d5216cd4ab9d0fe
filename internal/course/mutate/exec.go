package mutate

// This file runs one chapter's test binary, with one mutant switched on,
// and reads through test2json which test failed first and why.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fencelab/fencelab/internal/course/schemata"
)

// outcome is what one run of a test binary showed.
type outcome struct {
	failed bool
	by     string // the first failing test and its first failure line
}

// scriptTests are the tests that run the runner's scripts: the slow part
// of a chapter, since every script starts processes.
const scriptTests = "^TestScripts$"

// runBinary runs a chapter's test binary in the chapter's folder with
// mutant num switched on (0: none), failing fast, and bounded by timeout.
// The in-process tests run first and the scripts only if they all pass:
// -failfast stops starting tests after a failure but waits for the ones
// already running, and the scripts would run in parallel to the end.
func runBinary(ctx context.Context, cfg Config, ch *chapter, bin string, num int, timeout time.Duration) outcome {
	if o := runTests(ctx, cfg, ch, bin, num, timeout, "-test.skip="+scriptTests); o.failed {
		return o
	}
	return runTests(ctx, cfg, ch, bin, num, timeout, "-test.run="+scriptTests)
}

// runTests runs the tests of a chapter's binary that selection picks.
func runTests(ctx context.Context, cfg Config, ch *chapter, bin string, num int, timeout time.Duration, selection string) outcome {
	ctx, cancel := context.WithTimeout(ctx, timeout+15*time.Second)
	defer cancel()
	args := append(cfg.test2json[1:len(cfg.test2json):len(cfg.test2json)], "-t", "-p", ch.ImportPath, bin,
		"-test.v=test2json", "-test.count=1", "-test.failfast", "-test.timeout="+timeout.String(), selection)
	cmd := exec.CommandContext(ctx, cfg.test2json[0], args...)
	cmd.Dir = ch.Dir
	cmd.Env = append(append(os.Environ(), cfg.Env...), schemata.SwitchEnv+"="+strconv.Itoa(num))
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	o := readEvents(out)
	if ctx.Err() != nil {
		return outcome{failed: true, by: "timeout: the tests did not finish within " + timeout.String()}
	}
	if err != nil && !o.failed {
		o = outcome{failed: true, by: "the test binary failed: " + crashLine(out)}
	}
	return o
}

// event is one line of test2json output.
type event struct {
	Action string
	Test   string
	Output string
}

// failureLines pick, from a failed test's output, the line that says what
// broke, best first: testscript's FAIL line (a script's log is long and
// starts elsewhere), a panic, an assertion with its file:line.
var failureLines = []*regexp.Regexp{
	regexp.MustCompile(`FAIL: \S+:\d+: .*`),
	regexp.MustCompile(`panic: .*`),
	regexp.MustCompile(`\S+_test\.go:\d+: .*`),
	regexp.MustCompile(`\S+\.go:\d+: .*`),
}

// findFailure returns the best failure line in output, or "".
func findFailure(output string) string {
	for _, re := range failureLines {
		if m := re.FindString(output); m != "" {
			return shorten(strings.TrimSpace(m), 240)
		}
	}
	return ""
}

// readEvents finds the first failing test in test2json output.
func readEvents(out []byte) outcome {
	outputs := map[string]*strings.Builder{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Action {
		case "output":
			if outputs[ev.Test] == nil {
				outputs[ev.Test] = &strings.Builder{}
			}
			outputs[ev.Test].WriteString(ev.Output)
		case "fail":
			if ev.Test == "" {
				continue
			}
			why := ""
			if b := outputs[ev.Test]; b != nil {
				why = whyFailed(b.String())
			}
			return outcome{failed: true, by: strings.TrimSpace(ev.Test + ": " + why)}
		}
	}
	return outcome{}
}

// whyFailed is the line of a test's output that says what broke.
func whyFailed(output string) string {
	if m := findFailure(output); m != "" {
		return m
	}
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "=== ") && !strings.HasPrefix(line, "--- ") {
			return shorten(line, 240)
		}
	}
	return ""
}

// crashLine explains a test binary that failed without a failing test:
// a panic or a timeout outside any test.
func crashLine(out []byte) string {
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Action == "output" {
			b.WriteString(ev.Output)
		}
	}
	if m := findFailure(b.String()); m != "" {
		return m
	}
	return shorten(firstLine(b.String()), 240)
}

// shorten cuts s to at most n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
