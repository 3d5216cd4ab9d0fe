// Package weakening reads the course's break-and-fix catalog: one file per
// weakening, each naming a file under internal/, the exact text to replace,
// the replacement, and the chapter tests that must fail once the
// replacement is made.
//
// A catalog file is a txtar archive. Its comment holds a one-line summary
// of the mistake and the keys file, tests and expect; its sections are
// alternating "before" and "after" pairs applied in order:
//
//	Complete checks the owner's name but not the token it presents.
//
//	file: internal/mailbox/complete.go
//	tests: TestTokenNeverIssuedCannotComplete
//	expect: never issued
//	-- before --
//	...exact text, found exactly once...
//	-- after --
//	...its replacement...
//
// The package parses and validates such files, applies their edits to file
// contents, writes go command overlays so a weakening can be tested without
// touching the working tree, and renders an edit as a unified diff.
package weakening

import "regexp"

// Layout of a chapter's catalog inside its chapter folder.
const (
	// Dir is the folder inside a chapter folder that holds its catalog.
	Dir = "weakenings"
	// Ext ends the name of every catalog file; the rest is the weakening's name.
	Ext = ".txtar"
	// ExcuseFile, inside Dir, names chapter tests that no weakening is
	// expected to make fail, each with a written reason.
	ExcuseFile = "never-failing.txt"
	// ChaptersDir is the folder, at the module root, that holds the chapters.
	ChaptersDir = "chapters"
)

// Weakening is one catalog entry: a deliberate mistake in one file under
// internal/ and the chapter tests that must catch it.
type Weakening struct {
	Name    string   // the catalog file's name without Ext, e.g. "complete-ignores-token"
	Chapter string   // the chapter folder's name, e.g. "ch02_cas_claim"
	Path    string   // the catalog file, relative to the module root, slash-separated
	Summary string   // the mistake, in words a learner recognises
	File    string   // the target, relative to the module root, slash-separated
	Tests   []string // the tests that must fail, as go test -run names them
	Expect  string   // a regexp the failing tests' output must match; empty for none
	Edits   []Edit   // applied in order to the target's contents
}

// Edit replaces the only occurrence of Before with After.
type Edit struct {
	Before, After string
}

// namePattern is what a weakening's name looks like: lowercase words (or
// numbers) joined by dashes.
var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// testPattern is what a name under tests: looks like: a top-level test or
// fuzz target (go test runs a fuzz target's seed corpus like a test),
// optionally followed by a subtest path.
var testPattern = regexp.MustCompile(`^(Test|Fuzz)[A-Za-z0-9_]*(/\S+)?$`)

// ValidName reports whether name is a well-formed weakening name.
func ValidName(name string) bool { return namePattern.MatchString(name) }
