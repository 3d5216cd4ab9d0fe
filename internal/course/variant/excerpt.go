package variant

// This file picks out of a go test run what a learner reads first: a
// failing test's own message, without the framing go test adds around it,
// a few lines long. Every drill command shows failures this way; the full
// log is behind -v.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// messageLines bounds one test's message in an excerpt.
const messageLines = 8

// scriptFailure is the line testscript prints where a script failed.
var scriptFailure = regexp.MustCompile(`^FAIL: \S+\.txtar:\d+: `)

// MessageOf returns the message of top-level test name: the output of its
// first failing subtest (or of itself), headed by a "--- FAIL: NAME" line.
// It returns "" if neither printed anything.
func (run *PackageRun) MessageOf(name string) string {
	for _, n := range run.FailOrder {
		if n != name && !strings.HasPrefix(n, name+"/") {
			continue
		}
		if lines := ownLines(run.Tests[n].Output.String()); len(lines) > 0 {
			kept, more := shortenMessage(lines)
			kept = indent(kept)
			if more > 0 {
				kept = append(kept, fmt.Sprintf("    ... %d more lines (-v shows them)", more))
			}
			return "--- FAIL: " + n + "\n" + strings.Join(kept, "\n")
		}
	}
	return ""
}

// FirstFailure returns the message of the first top-level test that
// failed, as MessageOf gives it. A Go test's message names the property
// it checks, where a script's names a line of JSON, so the first failing
// Go test comes before any script.
func (run *PackageRun) FirstFailure() string {
	var seen []string
	script := ""
	for _, n := range run.FailOrder {
		top, _, _ := strings.Cut(n, "/")
		if slices.Contains(seen, top) {
			continue
		}
		seen = append(seen, top)
		m := run.MessageOf(top)
		switch {
		case m == "":
		case !isScriptMessage(m):
			return m
		case script == "":
			script = m
		}
	}
	return script
}

// isScriptMessage reports whether a message is a script's failure.
func isScriptMessage(m string) bool {
	for _, l := range strings.Split(m, "\n") {
		if scriptFailure.MatchString(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

// ownLines returns a test's output without go test's framing: no "=== "
// scheduling lines and no "--- FAIL"/"--- PASS" result lines, and no blank
// lines at either end.
func ownLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- FAIL") || strings.HasPrefix(t, "--- PASS") ||
			strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		lines = append(lines, strings.TrimRight(l, " \t"))
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// shortenMessage keeps a message readable, and says how many lines it left out.
// A script's failure keeps the phase comment and the command before the
// FAIL line (the script's log above them is in -v); any other message
// keeps its first lines.
func shortenMessage(lines []string) (kept []string, more int) {
	for i, l := range lines {
		if !scriptFailure.MatchString(strings.TrimSpace(l)) {
			continue
		}
		kept = []string{l}
		for j := i - 1; j >= 0 && len(kept) < 3; j-- {
			t := strings.TrimSpace(lines[j])
			if strings.HasPrefix(t, "> ") && len(kept) == 1 || strings.HasPrefix(t, "# ") {
				kept = append([]string{lines[j]}, kept...)
				if strings.HasPrefix(t, "# ") {
					break
				}
			}
		}
		return kept, 0
	}
	if len(lines) <= messageLines {
		return lines, 0
	}
	return lines[:messageLines-1], len(lines) - messageLines + 1
}

// indent re-indents lines by four spaces, keeping their relative
// indentation.
func indent(lines []string) []string {
	least := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if least < 0 || n < least {
			least = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			out[i] = "    " + l[max(least, 0):]
		}
	}
	return out
}

// failureLines pick, from a failed test's output, the one line that says
// what broke, best first: testscript's FAIL line (a script's log is long
// and starts elsewhere), a panic, an assertion with its file:line.
var failureLines = []*regexp.Regexp{
	regexp.MustCompile(`FAIL: \S+:\d+: .*`),
	regexp.MustCompile(`panic: .*`),
	regexp.MustCompile(`\S+_test\.go:\d+: .*`),
	regexp.MustCompile(`\S+\.go:\d+: .*`),
}

// FirstFailed returns the first test that failed, and the one line of its
// output that says why ("" if it printed none): what a report of many
// runs shows in one line. ok is false if no test failed.
func (run *PackageRun) FirstFailed() (test, why string, ok bool) {
	for _, n := range run.FailOrder {
		return n, failureLine(run.Tests[n].Output.String()), true
	}
	return "", "", false
}

// CrashLine explains a run that failed without a failing test: a panic,
// or a timeout outside any test.
func (run *PackageRun) CrashLine() string {
	if m := findFailure(run.Output); m != "" {
		return m
	}
	return Shorten(FirstLines(run.Output, 1, ""), 240)
}

// failureLine is the line of a test's output that says what broke.
func failureLine(output string) string {
	if m := findFailure(output); m != "" {
		return m
	}
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "=== ") && !strings.HasPrefix(line, "--- ") {
			return Shorten(line, 240)
		}
	}
	return ""
}

// findFailure returns the best failure line in output, or "".
func findFailure(output string) string {
	for _, re := range failureLines {
		if m := re.FindString(output); m != "" {
			return Shorten(strings.TrimSpace(m), 240)
		}
	}
	return ""
}

// Shorten cuts s to at most n bytes, marking the cut.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
