package weakening

// This file finds the exercises a chapter README points learners to, so a
// test can keep the text and the catalog in step both ways.

import (
	"bytes"
	"regexp"
)

// TryCommand is the command a chapter README gives for each exercise,
// followed by a space and the weakening's name.
const TryCommand = "go run ./tools/drill try"

// tryLine matches TryCommand and captures the word after it.
var tryLine = regexp.MustCompile(`go run \./tools/drill try +([^\s` + "`" + `'")\]]+)`)

// TryNames returns the names readme passes to TryCommand, in order of
// appearance, repeats included.
func TryNames(readme []byte) []string {
	var names []string
	for _, m := range tryLine.FindAllSubmatch(readme, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// Quote is an edit a chapter README quotes: the weakening named by the
// try line before it, the file, and the before and after blocks.
type Quote struct {
	Weakening string
	File      string
	Before    string
	After     string
	Line      int // of the "replace" line, 1-based
}

// quoteRe matches "In `internal/FILE`, replace", a fenced block, "with", another
// fenced block: how a chapter README quotes a weakening's edit.
var quoteRe = regexp.MustCompile("(?s)In `(internal/[^`]+)`, replace\n\n```[a-z]*\n(.*?)```\n\nwith\n\n```[a-z]*\n(.*?)```")

// Quotes returns every edit readme quotes, each with the weakening of the
// try line that comes before it.
func Quotes(readme []byte) []Quote {
	var out []Quote
	tries := tryLine.FindAllSubmatchIndex(readme, -1)
	for _, m := range quoteRe.FindAllSubmatchIndex(readme, -1) {
		q := Quote{File: string(readme[m[2]:m[3]]), Before: string(readme[m[4]:m[5]]), After: string(readme[m[6]:m[7]]),
			Line: 1 + bytes.Count(readme[:m[0]], []byte("\n"))}
		for _, t := range tries {
			if t[0] < m[0] {
				q.Weakening = string(readme[t[2]:t[3]])
			}
		}
		out = append(out, q)
	}
	return out
}
