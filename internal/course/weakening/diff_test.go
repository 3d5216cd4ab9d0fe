package weakening

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

func TestDiffIsUnifiedWithThreeLinesOfContext(t *testing.T) {
	t.Parallel()
	var old []string
	for _, l := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o"} {
		old = append(old, l+"\n")
	}
	new := append([]string(nil), old...)
	new[3] = "D\n"                                                  // line 4 changed
	new = append(new[:12], append([]string{"X\n"}, new[12:]...)...) // inserted after line 12
	got := Diff("internal/a/a.go", []byte(strings.Join(old, "")), []byte(strings.Join(new, "")))
	want := `diff a/internal/a/a.go b/internal/a/a.go
--- a/internal/a/a.go
+++ b/internal/a/a.go
@@ -1,7 +1,7 @@
 a
 b
 c
-d
+D
 e
 f
 g
@@ -10,6 +10,7 @@
 j
 k
 l
+X
 m
 n
 o
`
	assert.Equal(t, got, want)
}

func TestDiffSaysWhenTheLastLineHasNoNewline(t *testing.T) {
	t.Parallel()
	got := Diff("a.go", []byte("x := 1\n}"), []byte("x := 2\n}"))
	want := `diff a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -1,2 +1,2 @@
-x := 1
+x := 2
 }
\ No newline at end of file
`
	assert.Equal(t, got, want)
}

func TestDiffOfEqualContentsIsEmpty(t *testing.T) {
	t.Parallel()
	assert.Equal(t, Diff("a.go", []byte("same\n"), []byte("same\n")), "")
}
