package exercise

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"gotest.tools/v3/assert"
)

// A saved solution is a diff against the shipped file; applied to that
// file it must give back the learner's file byte for byte, whatever the
// learner changed.
func TestPatchGivesBackTheLearnersFile(t *testing.T) {
	t.Parallel()
	shipped := "package p\n\nfunc a() int {\n\treturn 1\n}\n\nfunc b() int {\n\treturn 2\n}\n\nfunc c() int {\n\treturn 3\n}\n"
	for _, tc := range []struct{ name, learner string }{
		{"same", shipped},
		{"one-line", strings.Replace(shipped, "return 2", "return 1 + 1", 1)},
		{"two-hunks", strings.Replace(strings.Replace(shipped, "return 1\n", "x := 1\n\treturn x\n", 1), "return 3", "return 4", 1)},
		{"first-line", "// Package p.\n" + shipped},
		{"last-line-without-newline", strings.TrimSuffix(shipped, "\n")},
		{"everything", "package q\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patch := string(diff.Diff("a/f.go", []byte(shipped), "b/f.go", []byte(tc.learner)))
			got, err := applyPatch([]byte(shipped), patch)
			assert.NilError(t, err)
			assert.Equal(t, string(got), tc.learner, "applying the saved diff must give back the learner's file")
		})
	}
}

// A diff applied to a file it was not made from is refused, never
// applied loosely: a solution is graded on the code it was written for.
func TestPatchRefusesAnotherFile(t *testing.T) {
	t.Parallel()
	shipped := "a\nb\nc\nd\ne\n"
	patch := string(diff.Diff("a/f", []byte(shipped), "b/f", []byte("a\nb\nC\nd\ne\n")))
	_, err := applyPatch([]byte("a\nb\nx\nd\ne\n"), patch)
	assert.ErrorIs(t, err, ErrPatch)
}
