package drill

// Tests of the command line: misuse, list, show, and the exit status and
// JSON document of check.

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/check"
)

func TestMisuseExitsTwoWithOneLineNamingWhatIsAllowed(t *testing.T) {
	t.Parallel()
	root := fixtureRoot(t)
	cases := []struct {
		name   string
		args   []string
		stderr string // a regexp the single stderr line must match
	}{
		{"unknown-command", []string{"frobnicate"}, `^drill: unknown command "frobnicate": want one of exercises, start, hint, verify, watch, reset, progress, grade, list, show, try, apply, restore, check, mutate$`},
		{"near-command", []string{"verfy"}, `^drill: unknown command "verfy" \(did you mean verify\?\): want one of `},
		{"near-exercise", []string{"start", "fix-cieling"}, `^drill start: unknown exercise "fix-cieling" \(did you mean fix-ceiling\?\)`},
		{"weakening-to-start", []string{"start", "ceiling-ignored"}, `^drill start: "ceiling-ignored" is a weakening of ch03_green, not an exercise: try it with 'go run ./tools/drill try ceiling-ignored'`},
		{"exercise-to-try", []string{"try", "build-add"}, `^drill try: "build-add" is an exercise, not a weakening: begin it with 'go run ./tools/drill start build-add'`},
		{"long-argument", []string{"start", strings.Repeat("x", 100000)}, `^drill start: unknown exercise "x{63}…": run`},
		{"leading-zero-jobs", []string{"check", "--jobs", "010"}, `^drill check: invalid value "010" for flag --jobs: want a plain decimal integer from 0 to 256`},
		{"show-without-name", []string{"show"}, `^drill show: want exactly one weakening name, as in 'go run ./tools/drill show NAME'`},
		{"try-two-names", []string{"try", "a", "b"}, `^drill try: want exactly one weakening name`},
		{"unknown-weakening", []string{"try", "no-such-weakening"}, `^drill try: unknown weakening "no-such-weakening": run 'go run ./tools/drill list' for the names$`},
		{"unknown-chapter", []string{"check", "ch09"}, `^drill check: unknown chapter "ch09": want one of ch01 \(ch01_counter\), ch02 \(ch02_red\), ch03 \(ch03_green\)$`},
		{"unknown-flag", []string{"check", "--bogus"}, `^drill check: flag provided but not defined: --bogus \(allowed: --full, --jobs N, --json, --sample N, --seed S, --timeout DURATION, --update\)$`},
		{"list-two-chapters", []string{"list", "ch01", "ch02"}, `^drill list: want at most one chapter, got 2: ch01 ch02$`},
		{"restore-with-name", []string{"restore", "ceiling-off-by-one"}, `^drill restore: takes no arguments, got "ceiling-off-by-one"`},
		{"negative-jobs", []string{"check", "--jobs", "-1"}, `^drill check: invalid value "-1" for flag --jobs: want a plain decimal integer from 0 to 256`},
		{"unknown-package", []string{"mutate", "nosuch"}, `^drill mutate: unknown package "internal/nosuch": want a mechanism package, one of counter$`},
		{"seed-without-sample", []string{"check", "--seed", "5"}, `^drill check: --seed S chooses which reused verdicts --sample N judges again; give --sample N with it`},
		{"full-and-sample", []string{"mutate", "--full", "--sample", "2"}, `^drill mutate: --full judges everything again and reuses no verdict`},
		{"mutate-negative-jobs", []string{"mutate", "--jobs", "-1"}, `^drill mutate: invalid value "-1" for flag --jobs: want a plain decimal integer from 0 to 256`},
		{"check-full-and-sample", []string{"check", "--full", "--sample", "2"}, `^drill check: --full judges everything again and reuses no verdict`},
		{"mutate-seed-without-sample", []string{"mutate", "--seed", "5"}, `^drill mutate: --seed S chooses which reused verdicts --sample N judges again; give --sample N with it`},
		{"jobs-without-value", []string{"check", "--jobs"}, `^drill check: flag needs an argument: --jobs \(allowed: `},
		{"mutate-jobs-without-value", []string{"mutate", "--jobs"}, `^drill mutate: flag needs an argument: --jobs \(allowed: `},
		{"bad-boolean", []string{"check", "--json=maybe"}, `^drill check: invalid boolean value "maybe" for --json: `},
		{"mutate-single-dash-unknown", []string{"mutate", "-bogus"}, `^drill mutate: flag provided but not defined: --bogus \(allowed: `},
	}
	// singleDash is a flag spelled with one dash, as the flag package
	// spells it and drill never does: "-jobs", not a value such as "-1".
	singleDash := regexp.MustCompile(`(^|[\s(:])-[A-Za-z]`)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runTool(t, root, tc.args...)
			assert.Check(t, cmp.Equal(code, 2), "drill %s: exit status", strings.Join(tc.args, " "))
			assert.Check(t, cmp.Equal(stdout, ""), "misuse must print nothing on stdout")
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			assert.Assert(t, cmp.Len(lines, 1), "misuse must say what is wrong in one line; got %q", stderr)
			assert.Check(t, cmp.Regexp(regexp.MustCompile(tc.stderr), lines[0]))
			assert.Check(t, !singleDash.MatchString(lines[0]), "drill %s: %q spells a flag with one dash; want --name, as usage does", strings.Join(tc.args, " "), lines[0])
		})
	}
}

func TestNoArgumentsPrintsUsageAndExitsTwo(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runTool(t, fixtureRoot(t))
	assert.Check(t, cmp.Equal(code, 2))
	assert.Check(t, cmp.Equal(stdout, ""))
	assert.Check(t, strings.HasPrefix(stderr, "usage: go run ./tools/drill <command>"), "usage text: %q", stderr)
	for _, c := range commands {
		assert.Check(t, cmp.Contains(stderr, "  "+c.name+" "), "the usage must list %s", c.name)
	}
}

func TestHelpExitsZero(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-h"}, {"help"}, {"check", "-h"}, {"try", "-h"}} {
		code, stdout, stderr := runTool(t, fixtureRoot(t), args...)
		assert.Check(t, cmp.Equal(code, 0), "drill %s", strings.Join(args, " "))
		assert.Check(t, cmp.Equal(stdout, ""), "help goes to stderr")
		assert.Check(t, strings.HasPrefix(stderr, "usage: go run ./tools/drill"), "drill %s: %q", strings.Join(args, " "), stderr)
	}
}

func TestBrokenWeakeningSaysWhyItCannotBeUsed(t *testing.T) {
	t.Parallel()
	code, _, stderr := runTool(t, fixtureRoot(t), "show", "outside-internal")
	assert.Check(t, cmp.Equal(code, 1), "a broken catalog entry is not misuse: the name exists")
	assert.Check(t, cmp.Contains(stderr, "outside-internal cannot be used"))
	assert.Check(t, cmp.Contains(stderr, "the target must live under internal/"))
}

func TestListAcceptsFolderAndShortChapterNames(t *testing.T) {
	t.Parallel()
	root := fixtureRoot(t)
	code, short, _ := runTool(t, root, "list", "ch03")
	assert.Assert(t, cmp.Equal(code, 0))
	_, folder, _ := runTool(t, root, "list", "ch03_green")
	assert.Check(t, cmp.Equal(short, folder), "ch03 and ch03_green must list the same chapter")
	assert.Check(t, cmp.Equal(short, "ch03_green: 1 weakening\n"+
		"  ceiling-ignored\n"+
		"      Add never looks at the ceiling.\n"+
		"      edits internal/counter/counter.go; guarded by TestCeilingHolds\n"))
}

func TestListNamesEveryWeakeningAndItsGuards(t *testing.T) {
	t.Parallel()
	code, stdout, _ := runTool(t, fixtureRoot(t), "list")
	assert.Assert(t, cmp.Equal(code, 0))
	for _, want := range []string{"ch01_counter: 11 weakenings", "ch02_red: 1 weakening", "ch03_green: 1 weakening",
		"  ceiling-off-by-one\n", "guarded by TestCeilingRefusesAdd", "  outside-internal\n      unusable: "} {
		assert.Check(t, cmp.Contains(stdout, want))
	}
}

func TestShowPrintsTheEditAsADiffAndTheCommands(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runTool(t, fixtureRoot(t), "show", "ceiling-off-by-one")
	assert.Assert(t, cmp.Equal(code, 0), "stderr: %s", stderr)
	want := `ceiling-off-by-one (chapter ch01_counter)
The ceiling check uses > where it needs >=, so the counter goes one past it.

diff a/internal/counter/counter.go b/internal/counter/counter.go
--- a/internal/counter/counter.go
+++ b/internal/counter/counter.go
@@ -17,7 +17,7 @@
 
 // Add counts one more, or returns ErrFull at the ceiling.
 func (c *Counter) Add() error {
-	if c.n >= c.ceiling {
+	if c.n > c.ceiling {
 		return ErrFull
 	}
 	c.n++

Try it (your files stay as they are):
  go run ./tools/drill try ceiling-off-by-one

Or by hand, with the edit in your editor:
  go run ./tools/drill apply ceiling-off-by-one
  go test ./chapters/ch01_counter/ -run '^(TestCeilingRefusesAdd)$'
  go run ./tools/drill restore

Expect: TestCeilingRefusesAdd fails, and the failure output matches /passed its ceiling/.
`
	assert.Equal(t, stdout, want)
}

func TestShowOfAStaleWeakeningSaysItNoLongerApplies(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runTool(t, fixtureRoot(t), "show", "stale-before")
	assert.Check(t, cmp.Equal(code, 1))
	assert.Check(t, cmp.Contains(stdout, "edit 1 of internal/counter/counter.go, as the catalog writes it:"))
	assert.Check(t, cmp.Contains(stdout, "-\tif c.n >= c.limit {"))
	assert.Check(t, cmp.Equal(stderr, "drill show: stale-before no longer applies to the source: before-text not found in internal/counter/counter.go (edit 1)\n"))
}

func TestCheckExitsZeroOnlyWhenEverythingIsCaught(t *testing.T) {
	slow(t)
	t.Parallel()
	root := fixtureRoot(t)
	cases := []struct {
		chapter string
		code    int
		verdict check.Verdict
		ok      bool
	}{
		{"ch03", 0, check.Caught, true},
		{"ch02_red", 1, check.Invalid, false},
	}
	for _, tc := range cases {
		t.Run(tc.chapter, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runTool(t, root, "check", tc.chapter, "--json")
			assert.Check(t, cmp.Equal(code, tc.code), "drill check %s --json; stderr: %s", tc.chapter, stderr)
			var doc struct {
				Weakenings []struct {
					Chapter     string        `json:"chapter"`
					Name        string        `json:"name"`
					Verdict     check.Verdict `json:"verdict"`
					FailedTests []string      `json:"failed_tests"`
					Seconds     *float64      `json:"seconds"`
					Reason      *string       `json:"reason"`
				} `json:"weakenings"`
				NeverFailing []check.ChapterTest `json:"tests_never_failing"`
				OK           bool                `json:"ok"`
			}
			assert.NilError(t, json.Unmarshal([]byte(stdout), &doc), "stdout must be one JSON document: %q", stdout)
			assert.Assert(t, cmp.Len(doc.Weakenings, 1))
			w := doc.Weakenings[0]
			assert.Check(t, cmp.Equal(w.Verdict, tc.verdict))
			assert.Check(t, w.FailedTests != nil && w.Seconds != nil && w.Reason != nil,
				"every weakening must carry failed_tests, seconds and reason: %+v", w)
			assert.Check(t, doc.NeverFailing != nil, "tests_never_failing must be a list, even when empty")
			assert.Check(t, cmp.Equal(doc.OK, tc.ok))
		})
	}
}

func TestCheckHumanOutputEndsWithTheTable(t *testing.T) {
	slow(t)
	t.Parallel()
	root := fixtureRoot(t)
	before := snapshot(t, root)
	code, stdout, _ := runTool(t, root, "check", "ch03")
	assert.Check(t, cmp.Equal(code, 0))
	assert.Check(t, cmp.DeepEqual(snapshot(t, root), before), "drill check never writes the working tree")
	assert.Check(t, cmp.Contains(stdout, "baseline ch03_green: ok (1 tests)\n"))
	assert.Check(t, cmp.Regexp(`\[1/1\] caught   ch03_green ceiling-ignored \([0-9.]+s\)\n`, stdout))
	assert.Check(t, cmp.Regexp(`(?m)^ch03_green  ceiling-ignored  caught   [0-9.]+ +TestCeilingHolds$`, stdout))
	assert.Check(t, cmp.Regexp(`(?m)^drill check: ok: 1 weakenings: 1 caught, 0 survived, 0 invalid; 0 verdicts reused; 0 tests never failing \(0 excused\); [0-9.]+s$`, stdout))
}

// TestCheckAndMutateLeaveNothingInTMPDIR runs alone: it points TMPDIR at
// a folder of its own to see that check and mutate remove every scratch
// file, their test binaries' temporary files included. It works on a copy
// of the fixture, made before TMPDIR moves: mutate stores its verdicts in
// the tree it judges.
func TestCheckAndMutateLeaveNothingInTMPDIR(t *testing.T) {
	slow(t)
	root := copyFixture(t)
	scratch := t.TempDir()
	t.Setenv("TMPDIR", scratch)
	code, _, stderr := runTool(t, root, "check", "ch03")
	assert.Check(t, cmp.Equal(code, 0), "check: %s", stderr)
	code, _, stderr = runTool(t, root, "mutate", "counter", "--json")
	assert.Check(t, code == 0 || code == 1, "mutate ran: %s", stderr)
	left, err := os.ReadDir(scratch)
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(left, 0), "check and mutate left files in TMPDIR: %v", left)
}
