package weakening

// This file renders a weakening as a unified diff, the form a learner's
// editor and `git diff` already show them. The diff itself is
// go-internal's; this file only names the two sides the way git does.

import "github.com/rogpeppe/go-internal/diff"

// Diff returns the unified diff from old to new, both the contents of the
// file name (relative to the module root), with three lines of context:
// a "diff a/NAME b/NAME" line, then "--- a/NAME", "+++ b/NAME" and the
// "@@ ... @@" hunks. It returns "" when old and new are equal.
func Diff(name string, old, new []byte) string {
	return string(diff.Diff("a/"+name, old, "b/"+name, new))
}
