package weakening

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestApplyMakesEditsInOrder(t *testing.T) {
	t.Parallel()
	// The second edit's before-text exists only after the first edit.
	w := &Weakening{File: "internal/a/a.go", Edits: []Edit{
		{Before: "x := 1\n", After: "x := 2\n"},
		{Before: "x := 2\ny", After: "x := 3\ny"},
	}}
	got, err := w.Apply([]byte("x := 1\ny := 1\n"))
	assert.NilError(t, err)
	assert.Equal(t, string(got), "x := 3\ny := 1\n")
}

func TestApplyRefusesBeforeTextNotExactlyOnce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		src   string
		count int
		want  error
	}{
		{"missing", "y := 1\n", 0, ErrBeforeNotFound},
		{"twice", "x := 1\nx := 1\n", 2, ErrBeforeAmbiguous},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := &Weakening{File: "internal/a/a.go", Edits: []Edit{{Before: "x := 1\n", After: "x := 2\n"}}}
			_, err := w.Apply([]byte(tc.src))
			assert.Check(t, cmp.ErrorIs(err, tc.want), "Apply = %v; want %v", err, tc.want)
			var m *MatchError
			assert.Assert(t, errors.As(err, &m), "Apply = %v; want a *MatchError", err)
			assert.Check(t, cmp.Equal(m.Count, tc.count), "occurrences counted")
			assert.Check(t, cmp.Equal(m.Edit, 1))
		})
	}
}
