package weakening

import (
	"errors"
	"regexp/syntax"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

const goodEntry = `Complete checks the owner's name but not the token.

file: internal/mailbox/complete.go
tests: TestOne TestTwo/sub
expect: never issued
-- before --
	a := 1
-- after --
	a := 2
-- before --
	b := 1
-- after --
	b := 2
`

func TestParseReadsHeaderAndEditsInOrder(t *testing.T) {
	t.Parallel()
	w, err := Parse("chapters/ch02_cas_claim/weakenings/complete-ignores-token.txtar", []byte(goodEntry))
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(w.Name, "complete-ignores-token"), "name comes from the file name")
	assert.Check(t, cmp.Equal(w.Chapter, "ch02_cas_claim"), "chapter comes from the folder above weakenings/")
	assert.Check(t, cmp.Equal(w.Summary, "Complete checks the owner's name but not the token."))
	assert.Check(t, cmp.Equal(w.File, "internal/mailbox/complete.go"))
	assert.Check(t, cmp.DeepEqual(w.Tests, []string{"TestOne", "TestTwo/sub"}))
	assert.Check(t, cmp.Equal(w.Expect, "never issued"))
	assert.Check(t, cmp.DeepEqual(w.Edits, []Edit{
		{Before: "\ta := 1\n", After: "\ta := 2\n"},
		{Before: "\tb := 1\n", After: "\tb := 2\n"},
	}), "edits keep their text exactly, in file order")
	assert.NilError(t, w.Validate(), "a well-formed entry must validate")
}

func TestParseRefusesMalformedEntries(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, text string }{
		{"after-first", "x\n\nfile: internal/a/a.go\ntests: TestA\n-- after --\nb\n-- before --\na\n"},
		{"before-without-after", "x\n\nfile: internal/a/a.go\ntests: TestA\n-- before --\na\n"},
		{"other-section", "x\n\nfile: internal/a/a.go\ntests: TestA\n-- before --\na\n-- replace --\nb\n"},
		{"key-twice", "x\n\nfile: internal/a/a.go\nfile: internal/b/b.go\ntests: TestA\n-- before --\na\n-- after --\nb\n"},
		{"stray-line-after-keys", "x\n\nfile: internal/a/a.go\nmore words\ntests: TestA\n-- before --\na\n-- after --\nb\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("chapters/ch09_x/weakenings/w.txtar", []byte(tc.text))
			assert.Check(t, cmp.ErrorIs(err, ErrMalformed), "Parse(%s) = %v; want ErrMalformed", tc.name, err)
		})
	}
}

func TestValidateEnforcesTheCatalogRules(t *testing.T) {
	t.Parallel()
	ok := func() *Weakening {
		return &Weakening{Name: "good-name", Path: "p", Summary: "s", File: "internal/a/a.go",
			Tests: []string{"TestA"}, Edits: []Edit{{Before: "a\n", After: "b\n"}}}
	}
	cases := []struct {
		name  string
		spoil func(w *Weakening)
	}{
		{"uppercase-name", func(w *Weakening) { w.Name = "Bad_Name" }},
		{"no-summary", func(w *Weakening) { w.Summary = "" }},
		{"no-file", func(w *Weakening) { w.File = "" }},
		{"outside-internal", func(w *Weakening) { w.File = "chapters/ch01/a.go" }},
		{"escapes-root", func(w *Weakening) { w.File = "internal/../../a.go" }},
		{"not-go", func(w *Weakening) { w.File = "internal/a/schema.sql" }},
		{"test-file", func(w *Weakening) { w.File = "internal/a/a_test.go" }},
		{"no-tests", func(w *Weakening) { w.Tests = nil }},
		{"not-a-test-name", func(w *Weakening) { w.Tests = []string{"CheckA"} }},
		{"bad-pattern", func(w *Weakening) { w.Expect = "(" }},
		{"no-edits", func(w *Weakening) { w.Edits = nil }},
		{"blank-before", func(w *Weakening) { w.Edits[0].Before = " \n" }},
		{"no-op-edit", func(w *Weakening) { w.Edits[0].After = w.Edits[0].Before }},
	}
	assert.NilError(t, ok().Validate(), "the unbroken entry must validate")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := ok()
			tc.spoil(w)
			err := w.Validate()
			assert.Check(t, cmp.ErrorIs(err, ErrMalformed), "Validate() with %s = %v; want ErrMalformed", tc.name, err)
		})
	}
}

// TestValidateKeepsTheCauseReachable: a malformed entry's error wraps both
// ErrMalformed and the error that made it malformed, so a caller can ask
// about either (here, the expect pattern's own syntax error).
func TestValidateKeepsTheCauseReachable(t *testing.T) {
	t.Parallel()
	w := &Weakening{Name: "good-name", Path: "p", Summary: "s", File: "internal/a/a.go",
		Tests: []string{"TestA"}, Expect: "(", Edits: []Edit{{Before: "a\n", After: "b\n"}}}

	err := w.Validate()

	assert.ErrorIs(t, err, ErrMalformed, "Validate() with expect %q", w.Expect)
	var cause *syntax.Error
	assert.Check(t, errors.As(err, &cause), "Validate() with expect %q = %v; want the pattern's *syntax.Error reachable through it", w.Expect, err)
}
