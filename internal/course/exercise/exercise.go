// Package exercise is the learner track of the course: exercises a learner
// works through, each starting red, with graded hints, progress kept
// outside the tracked tree, and grading of the learner's own tests against
// the shipped mechanism (the wheat) and deliberately broken copies of it
// (the chaffs).
//
// An exercise is data, one txtar file in a chapter's exercises folder,
// beside the weakening catalog (package weakening). Its comment holds a
// one-line summary and keys; its sections hold source text:
//
//	Repair Complete from its failures alone.
//
//	kind: fix
//	property: Only the token the claim issued completes the message.
//	fault: complete-ignores-token
//
// There are three kinds:
//
//   - fix: the tool hides a fault in the mechanism, a catalog weakening or
//     a mutant (package mutate) the chapter's tests kill; the learner
//     repairs it from the failure messages alone.
//   - test: the chapter's tests for one property are withheld while the
//     exercise runs; the learner writes their own in a file the tool
//     creates. The score is how many chaffs (weakenings and mutants that
//     break the property) make the learner's test fail, while it passes
//     against the shipped mechanism.
//   - build: the tool replaces one mechanism function's body with a stub
//     that fails clearly; the learner writes the function again.
//
// The package reads and checks exercise files, makes the edits that start
// an exercise and undoes them, keeps the learner's progress, gives hints
// level by level, and grades: the chapter's tests run through the course's
// runner of variants (package variant), and a weakening is graded by the
// graded check's rules (package check).
package exercise

import (
	"regexp"
	"strings"
)

// Layout of a chapter's exercises inside its chapter folder.
const (
	// Dir is the folder inside a chapter folder that holds its exercises.
	Dir = "exercises"
	// Ext ends the name of every exercise file; the rest is its name.
	Ext = ".txtar"
)

// Kind is what an exercise asks of the learner.
type Kind string

// The kinds, in the order a chapter lists them: reading failures first,
// then writing a test, then writing the mechanism.
const (
	Fix   Kind = "fix"
	Test  Kind = "test"
	Build Kind = "build"
)

// Kinds lists every kind in order.
var Kinds = []Kind{Fix, Test, Build}

// order is k's position in Kinds.
func (k Kind) order() int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	return len(Kinds)
}

// Exercise is one exercise file.
type Exercise struct {
	Name    string // the file's name without Ext, e.g. "fix-complete-token"
	Chapter string // the chapter folder's name, e.g. "ch02_cas_claim"
	Path    string // the file, relative to the module root, slash-separated
	Summary string // what the learner does, in one line
	Kind    Kind
	// Property is the guarantee at stake, in a learner's words: the first
	// hint of every kind.
	Property string
	// Expect is a regexp the chapter's failing output must match once the
	// exercise is started: the stated reason it starts red. For a fix whose
	// fault is a weakening it defaults to the weakening's own expect.
	Expect string

	// Fault (fix) is the hidden fault: a weakening's name, or a mutant's ID
	// (they contain a colon).
	Fault string

	// File and Func (test, build) are the mechanism file and the function
	// the property is about, as Func names it: "Mailbox.Complete", "admit".
	File, Func string
	// Region (test) is text that occurs once in File: the lines the third
	// hint points to.
	Region string
	// Section (build) is a heading of the chapter's README: the text the
	// third hint points to.
	Section string
	// Stub (build) is the body the tool gives Func: Go statements that
	// compile on their own and fail clearly.
	Stub string

	// Withhold (test) are the chapter's tests for the property, taken out
	// of the chapter while the exercise is worked on. They are also the
	// reference solution the course's own proof grades.
	Withhold []string
	// Chaffs (test) are the broken mechanisms the learner's test must
	// reject, each with the property it breaks.
	Chaffs []Chaff
	// Weak (test) is a deliberately weak learner test file: the proof that
	// grading tells a weak test from a good one.
	Weak string
}

// Chaff is one broken copy of the mechanism a test exercise grades
// against.
type Chaff struct {
	// ID is a weakening's name or a mutant's ID.
	ID string
	// Property is what the chaff breaks, in a learner's words. A missed
	// chaff is reported by it, never by its diff.
	Property string
}

// IsMutant reports whether id names a mutant rather than a weakening:
// mutant IDs are "package:function:operator:hash".
func IsMutant(id string) bool { return strings.Contains(id, ":") }

// namePattern is what an exercise name looks like: its kind, then
// lowercase words joined by dashes.
var namePattern = regexp.MustCompile(`^(fix|test|build)(-[a-z0-9]+)+$`)

// ValidName reports whether name is a well-formed exercise name for kind:
// it starts with the kind, so a learner can tell the kind from the name.
func ValidName(name string, kind Kind) bool {
	return namePattern.MatchString(name) && strings.HasPrefix(name, string(kind)+"-")
}
