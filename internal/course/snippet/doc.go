// Package snippet holds the chapter texts to the code they hand out: every
// Go block a chapter tells the learner to type is applied, the way the text
// says, to a copy of the module, which must then build and pass go vet; and
// every outcome the text promises for a command it marks is checked by
// running that command in the same copy.
//
// The package is course tooling and consists of its tests: doc.go holds
// only this comment, text_test.go reads a chapter text and its markers,
// edit_test.go makes one marked edit, and snippet_test.go holds the tests
// that read chapters/*/*.md. Nothing imports it, and it adds no code to
// the module.
//
// # Markers
//
// A chapter text marks what the learner does with an HTML comment on its
// own line (a reader of the rendered page never sees it). Blank lines may
// come between a marker and what it marks; nothing else may.
//
//	<!-- apply: FILE HOW -->       before a ```go block to type
//	<!-- run -->                   before an indented block of commands
//	<!-- run: passes -->
//	<!-- run: fails `REGEXP` -->
//
// FILE is a path relative to the module root, slash-separated. HOW says
// where the block goes:
//
//	append              at the end of FILE
//	replace             in place of the text of the unmarked go block just
//	                    before it in the same section ("replace ... with
//	                    ..."), which must occur exactly once in FILE
//	replace-func NAME   in place of the declaration of NAME ("Func" or
//	                    "Type.Method"), its doc comment included
//	before "TEXT"       as whole lines before, or after, the one line of
//	after "TEXT"        FILE that contains TEXT (a Go string literal)
//
// A run block's lines are commands, handled in order:
//
//	go run ./tools/drill apply NAME   the catalog's weakening NAME is applied
//	go run ./tools/drill restore      the files weakened so far are put back
//	go test|build|vet ARGS...         run at the module root of the copy
//
// A block with a go command holds exactly one, and its marker says what it
// must do: pass (exit 0), or fail (exit non-zero, having built) with output
// that matches REGEXP, a regexp written as a Go string literal (a raw one,
// in backquotes, spares the backslashes). A block with no go command takes
// a bare "run" marker.
//
// # Sections
//
// Every heading starts a section, and the steps of a section continue one
// another: each section with a marker gets its own fresh copy, its apply
// blocks and run blocks are taken in the order of the text, and before each
// run block and at the end of the section every package an apply block
// changed since the last check is built (if it has non-test files) and
// vetted. Chapter texts tell the learner to undo each section's edits
// before the next, so no section depends on another.
//
// # Quoted weakenings and illustrations
//
// A section with a "go run ./tools/drill try NAME" line teaches that
// weakening, and its unmarked go blocks quote NAME's edit for a learner who
// makes it by hand: each must occur in NAME's target file, as shipped or as
// the edit leaves it. The catalog's own check (drill check) builds every
// weakening and runs the tests it names.
//
// Every other unmarked go block is an illustration and is not checked, but
// an unmarked one whose lead-in line ends in "replace", "with" or "add"
// reads like an edit to make, and is reported until it is marked.
package snippet
