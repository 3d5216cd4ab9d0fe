package snippet

// This file tests Parse on small texts: what it files where, and every
// marker it must refuse.

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// walkthroughText has one section of each kind: a walkthrough with every
// marker, a weakening's section with a quoted edit, and an illustration.
const walkthroughText = "# Chapter\n" +
	"\n" +
	"## Walk\n" +
	"\n" +
	"In `f.go`, replace\n" +
	"\n" +
	"```go\n\told()\n```\n" +
	"\n" +
	"with\n" +
	"\n" +
	"<!-- apply: pkg/f.go replace -->\n" +
	"```go\n\tnew()\n```\n" +
	"\n" +
	"1. Then, before the loop:\n" +
	"\n" +
	"   <!-- apply: pkg/f.go before \"for {\" -->\n" +
	"   ```go\n   \tx := 1\n   ```\n" +
	"\n" +
	"<!-- run -->\n" +
	"    go run ./tools/drill apply some-weakening\n" +
	"\n" +
	"<!-- run: fails `want \\d+` -->\n" +
	"\n" +
	"    go test ./pkg/ -run '^(TestA|TestB)$'\n" +
	"    go run ./tools/drill restore\n" +
	"\n" +
	"## Break it\n" +
	"\n" +
	"    go run ./tools/drill try some-weakening\n" +
	"\n" +
	"In `internal/x.go`, replace\n" +
	"\n" +
	"```go\nquoted\n```\n" +
	"\n" +
	"## Look\n" +
	"\n" +
	"It begins:\n" +
	"\n" +
	"```go\nfunc F() {}\n```\n"

func TestParseFindsEachSectionsStepsQuotesAndIllustrations(t *testing.T) {
	t.Parallel()
	text, err := Parse("chapters/ch00/README.md", []byte(walkthroughText))
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(text.Sections, 5)) // before the first heading, then one per heading

	walk := text.Sections[2]
	assert.Equal(t, walk.Title, "Walk")
	assert.Assert(t, cmp.Len(walk.Steps, 4))
	assert.Assert(t, cmp.Len(walk.Loose, 0), "the replaced text belongs to its replace marker")
	replace := walk.Steps[0].Edit
	assert.DeepEqual(t, [3]string{replace.File, replace.How, replace.Find}, [3]string{"pkg/f.go", "replace", "\told()\n"})
	assert.Equal(t, replace.Block.Body, "\tnew()\n")
	before := walk.Steps[1].Edit
	// A block in a list item loses the list's indentation.
	assert.DeepEqual(t, [3]string{before.How, before.Arg, before.Block.Body}, [3]string{"before", "for {", "\tx := 1\n"})
	assert.Equal(t, walk.Steps[2].Run.Commands[0].Weakening(), "some-weakening")
	fails := walk.Steps[3].Run
	assert.Equal(t, fails.Expect, "fails")
	assert.Check(t, fails.Output.MatchString("want 12"))
	assert.DeepEqual(t, fails.Commands[0].Args, []string{"go", "test", "./pkg/", "-run", "^(TestA|TestB)$"})
	assert.Check(t, fails.Commands[1].Restores())

	brk := text.Sections[3]
	assert.DeepEqual(t, brk.Tries, []string{"some-weakening"})
	assert.Assert(t, cmp.Len(brk.Loose, 1))
	assert.Equal(t, brk.Loose[0].Lead, "In `internal/x.go`, replace")

	look := text.Sections[4]
	assert.Assert(t, cmp.Len(look.Steps, 0))
	assert.Assert(t, cmp.Len(look.Loose, 1))
	assert.Equal(t, look.Loose[0].Line, 47)
}

func TestParseReportsAMarkerThatMarksNothing(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		text, want string
	}{
		"ApplyBeforeProse":   {"<!-- apply: a.go append -->\nsome words\n", "README.md:1:"},
		"ApplyBeforeSQL":     {"<!-- apply: a.go append -->\n```sql\nSELECT 1\n```\n", "opens a ```sql block"},
		"ApplyAtTheEnd":      {"text\n\n<!-- apply: a.go append -->\n", "README.md:3:"},
		"ApplyBeforeHeading": {"<!-- apply: a.go append -->\n\n## Next\n", "line 3 is not one"},
		"ReplaceWithNothing": {"<!-- apply: a.go replace -->\n```go\nx\n```\n", "replace needs the text to replace"},
		"UnknownHow":         {"<!-- apply: a.go prepend -->\n```go\nx\n```\n", "want FILE then append"},
		"PathOutside":        {"<!-- apply: ../a.go append -->\n```go\nx\n```\n", "inside the module"},
		"AnchorNotQuoted":    {"<!-- apply: a.go before x := 1 -->\n```go\nx\n```\n", "Go string literal"},
		"RunBeforeFence":     {"<!-- run: passes -->\n```go\nx\n```\n", "not a fenced block"},
		"RunWithoutPromise":  {"<!-- run -->\n    go test ./x/\n", "say whether it passes or fails"},
		"PromiseWithoutGo":   {"<!-- run: passes -->\n    go run ./tools/drill restore\n", "runs no go command"},
		"TwoGoCommands":      {"<!-- run: passes -->\n    go test ./x/\n    go vet ./x/\n", "holds 2 go commands"},
		"OtherCommand":       {"<!-- run -->\n    go run ./tools/fencelab torture\n", "not \"go run ./tools/fencelab torture\""},
		"FailsWithoutRegexp": {"<!-- run: fails -->\n    go test ./x/\n", "want \"passes\" or \"fails"},
		"FailsWithBadRegexp": {"<!-- run: fails `(` -->\n    go test ./x/\n", "missing closing )"},
		"MarkerWithoutColon": {"<!-- apply a.go append -->\n```go\nx\n```\n", "want \"apply: FILE HOW\""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("README.md", []byte(tc.text))
			assert.Check(t, errors.Is(err, ErrMarker), "Parse(%q) = %v; want ErrMarker", tc.text, err)
			assert.Check(t, cmp.ErrorContains(err, tc.want))
		})
	}
}

func TestOtherCommentsAreNotMarkers(t *testing.T) {
	t.Parallel()
	text, err := Parse("README.md", []byte("<!-- a note to the editor -->\n\n```go\nx\n```\n"))
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(text.Sections[0].Loose, 1))
}

func TestWordsSplitsAsTheShellWouldWithSingleQuotes(t *testing.T) {
	t.Parallel()
	got := words(`go test ./x/  -run '^(A|B)$' -v 'two words'`)
	assert.DeepEqual(t, got, []string{"go", "test", "./x/", "-run", "^(A|B)$", "-v", "two words"})
	assert.Equal(t, strings.Join(words("go run ./tools/drill apply x"), "|"), "go|run|./tools/drill|apply|x")
}
