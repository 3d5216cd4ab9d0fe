package underfire

// This file holds what the mailbox, queue and session cases share: the
// roles a presented token can play, the text form of a step, read back
// from a regression case file, and the report a test prints when the
// mechanism and its model disagree.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"pgregory.net/rapid"
)

// tokenRef says which token a step presents. A step names it by role, not
// by number, so a case means the same thing whatever numbers the counter
// hands out, and still makes sense after shrinking left steps out.
type tokenRef string

const (
	latest  tokenRef = "latest"  // the newest one this actor won for the id
	earlier tokenRef = "earlier" // the one this actor won before that
	other   tokenRef = "other"   // the newest one another actor won for the id
	none    tokenRef = "none"    // no token (mailbox.NoToken, fence 0)
	never   tokenRef = "never"   // a number nobody was handed
)

var tokenRefs = []tokenRef{latest, earlier, other, none, never}

// won is one token an actor won for an id, in the order they were won.
type won[T any] struct {
	actor, id string
	tok       T
}

// resolve returns the token ref names for actor and id, given every token
// won so far, oldest first; zero means none was won.
func resolve[T any](ref tokenRef, history []won[T], actor, id string, neverTok T) T {
	var zero T
	var mine []T
	var others T
	for _, w := range history {
		switch {
		case w.id != id:
		case w.actor == actor:
			mine = append(mine, w.tok)
		default:
			others = w.tok
		}
	}
	switch ref {
	case latest:
		if len(mine) > 0 {
			return mine[len(mine)-1]
		}
	case earlier:
		if len(mine) > 1 {
			return mine[len(mine)-2]
		}
	case other:
		return others
	case never:
		return neverTok
	}
	return zero
}

// processes is how many worker processes, each with its own connection
// pools, a run's callers are spread over.
const processes = 3

// process returns which of the processes name calls from: the i-th plain
// name from the i-th, odd names from each in turn, and a name only a case
// file knows from the first.
func process(name string, plain, odd []string) int {
	if i := slices.Index(plain, name); i >= 0 {
		return i % processes
	}
	return (slices.Index(odd, name) + 1) % processes
}

// lookAlike returns a name that a careless comparison takes for name: the
// same letters in the other case, or with a trailing space, or with a NUL
// byte after them. The generators give it to impostor steps, which present
// the token of the name they look like.
func lookAlike(t *rapid.T, name string) string {
	switch below(t, "look-alike", 3) {
	case 0:
		if up := strings.ToUpper(name); up != name {
			return up
		}
		return strings.ToLower(name)
	case 1:
		return name + " "
	}
	return name + "\x00"
}

// bareName is a name printed without quotes.
var bareName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// quoteName prints an owner or worker name so it reads back exactly:
// plain names as they are, odd ones (empty, spaces, NUL) Go-quoted.
func quoteName(s string) string {
	if bareName.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// stepLine is one step read back from its text form
// `t=15 worker-a Claim(msg-1, token=latest)`: everything after the
// closing parenthesis (the printed results) is ignored. The first
// argument is the id; `RenewHost()` has none.
type stepLine struct {
	at    int64
	actor string
	op    string
	args  []string // the first is the id
}

var stepHead = regexp.MustCompile(`^t=(-?[0-9]+) `)

func parseStep(line string) (stepLine, error) {
	m := stepHead.FindStringSubmatch(line)
	if m == nil {
		return stepLine{}, fmt.Errorf("want t=MINUTE ACTOR Op(id, ...): %q", line)
	}
	var s stepLine
	s.at, _ = strconv.ParseInt(m[1], 10, 64)
	rest := line[len(m[0]):]
	if strings.HasPrefix(rest, `"`) {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return stepLine{}, fmt.Errorf("actor name in %q: %w", line, err)
		}
		s.actor, _ = strconv.Unquote(q)
		rest = rest[len(q):]
	} else {
		s.actor, rest, _ = strings.Cut(rest, " ")
		rest = " " + rest
	}
	call, _, ok := strings.Cut(strings.TrimPrefix(rest, " "), ")")
	op, args, ok2 := strings.Cut(call, "(")
	if !ok || !ok2 || op == "" {
		return stepLine{}, fmt.Errorf("want Op(id, ...) after the actor: %q", line)
	}
	s.op = op
	for a := range strings.SplitSeq(args, ",") {
		s.args = append(s.args, strings.TrimSpace(a))
	}
	return s, nil
}

// option returns the value of key=value among args after the id, or "".
func (s stepLine) option(key string) string {
	for _, a := range s.args[1:] {
		if v, ok := strings.CutPrefix(a, key+"="); ok {
			return v
		}
	}
	return ""
}

// flag reports whether args holds the bare word w.
func (s stepLine) flag(w string) bool {
	for _, a := range s.args[1:] {
		if a == w {
			return true
		}
	}
	return false
}

// caseLines returns a case file's meaningful lines: trimmed, without blank
// lines and # comments.
func caseLines(text string) []string {
	var out []string
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// disagreement is what a replay found: the lines it ran, the last one
// showing both answers, and what differed there.
type disagreement struct {
	lines []string
	what  string // "the answer", "msg-1's committed row", ...
}

// failer is what report fails: the test that runs a stored case, or
// rapid's T for a drawn sequence, which rapid then shrinks by replaying
// shorter draws until none still fails this way.
type failer interface {
	Helper()
	Fatal(args ...any)
}

// report fails with a disagreement, printed so it can be kept. system is
// "mailbox", "queue", "session" or "actor" (the testdata folder and the
// test that runs it); from says where the sequence came from; step is the
// step, counted from 1, at which the two disagreed; header is the case's
// first lines (lease, contract).
func report(fail failer, system, from string, step int, header []string, d disagreement) {
	fail.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "the %s and its model disagree about %s at step %d (%s); the last line says what each answered:\n\n",
		system, d.what, step, from)
	for _, l := range header {
		fmt.Fprintf(&b, "\t%s\n", l)
	}
	for _, l := range d.lines {
		fmt.Fprintf(&b, "\t%s\n", l)
	}
	fmt.Fprintf(&b, "\nTo keep it as a regression case, save the indented lines as\n"+
		"chapters/ch09_under_fire/testdata/%s/NAME.case, with a # line saying what it catches;\n"+
		"%s runs every case there.", system, regressionTest[system])
	fail.Fatal(b.String())
}

// regressionTest names the test that runs each system's stored cases.
var regressionTest = map[string]string{
	"mailbox": "TestMailboxRegressionCases",
	"queue":   "TestQueueRegressionCases",
	"session": "TestSessionRegressionCases",
	"actor":   "TestActorRegressionCases",
}

// storedCases returns the case files under testdata/system, by name.
func storedCases(tb testing.TB, system string) map[string]string {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", system, "*.case"))
	assert.NilError(tb, err)
	assert.Check(tb, len(paths) > 0, "no regression cases under testdata/%s", system)
	cases := map[string]string{}
	for _, p := range paths {
		text, err := os.ReadFile(p)
		assert.NilError(tb, err)
		cases[strings.TrimSuffix(filepath.Base(p), ".case")] = string(text)
	}
	return cases
}

// replaySteps runs steps in turns: run takes the steps not run yet, runs
// the next turn on the mechanism and on the model (one step, or an
// overtaken step with the step that overtakes it), and returns how many
// steps it ran, their printed lines and, if the two sides disagreed, what
// about. replaySteps returns the lines, how many steps ran, and the first
// disagreement, if any.
func replaySteps[S any](steps []S, run func(rest []S) (n int, lines []string, what string)) ([]string, int, *disagreement) {
	var lines []string
	for i := 0; i < len(steps); {
		n, ran, what := run(steps[i:])
		lines, i = append(lines, ran...), i+n
		if what != "" {
			return lines, i, &disagreement{lines: lines, what: what}
		}
	}
	return lines, len(steps), nil
}
