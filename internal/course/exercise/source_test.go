package exercise

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

const counterSrc = `// Package counter counts.
package counter

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrFull is returned at the ceiling.
var ErrFull = errors.New("counter: full")

// Counter counts up to a ceiling.
type Counter struct{ n, ceiling int }

// Add counts one more.
func (c *Counter) Add() error {
	if c.n >= c.ceiling {
		return fmt.Errorf("add %s: %w", strconv.Itoa(c.n), ErrFull)
	}
	c.n++
	return nil
}
`

func TestStubbedReplacesTheBodyAndDropsOnlyImportsItAloneUsed(t *testing.T) {
	t.Parallel()
	out, err := stubbed("internal/counter/counter.go", []byte(counterSrc), "Counter.Add", "\treturn errors.New(\"write me\")\n")
	assert.NilError(t, err)
	assert.Equal(t, string(out), `// Package counter counts.
package counter

import (
	"errors"
)

// ErrFull is returned at the ceiling.
var ErrFull = errors.New("counter: full")

// Counter counts up to a ceiling.
type Counter struct{ n, ceiling int }

// Add counts one more.
func (c *Counter) Add() error {
	return errors.New("write me")
}
`)
	_, err = stubbed("internal/counter/counter.go", []byte(counterSrc), "Add", "\treturn nil\n")
	assert.Check(t, cmp.ErrorIs(err, ErrNoFunc), "Add is a method: it is named Counter.Add")
}

const chapterTests = `package greenchapter

import (
	"errors"
	"testing"

	"example.com/drillfixture/internal/counter"
)

// TestA: the first.
func TestA(t *testing.T) {
	if errors.Is(counter.New(1).Add(), counter.ErrFull) {
		t.Error("first Add refused")
	}
}

// TestB: the second.
func TestB(t *testing.T) {
	t.Log("b")
}
`

func TestCutTestsWithholdsTheTestsAndTheReferenceRebuildsThem(t *testing.T) {
	t.Parallel()
	c, ok, err := cutTests("chapters/ch03_green/green_test.go", []byte(chapterTests), []string{"TestA"})
	assert.NilError(t, err)
	assert.Assert(t, ok)
	assert.Equal(t, string(c.After), `package greenchapter

import (
	"testing"
)

// TestB: the second.
func TestB(t *testing.T) {
	t.Log("b")
}
`)
	ref, err := referenceFile([]cut{c})
	assert.NilError(t, err)
	assert.Equal(t, string(ref), `package greenchapter

import (
	"errors"
	"testing"

	"example.com/drillfixture/internal/counter"
)

// TestLearnerA: the first.
func TestLearnerA(t *testing.T) {
	if errors.Is(counter.New(1).Add(), counter.ErrFull) {
		t.Error("first Add refused")
	}
}
`)
	_, ok, err = cutTests("chapters/ch03_green/green_test.go", []byte(chapterTests), []string{"TestC"})
	assert.NilError(t, err)
	assert.Check(t, !ok, "a file without the test is left alone")
}

func TestImportNameGuessesThePackageName(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		`"gotest.tools/v3/assert"`:               "assert",
		`"github.com/rogpeppe/go-internal/diff"`: "diff",
		`"github.com/foo/go-bar"`:                "bar",
		`"golang.org/x/mod/modfile"`:             "modfile",
	} {
		_, f, err := parseGo("x.go", []byte("package x\nimport "+path+"\n"))
		assert.NilError(t, err)
		assert.Check(t, cmp.Equal(importName(f.Imports[0]), want), path)
	}
}

func TestBreakageWhereNamesTheFunctionAndLinesOfTheChange(t *testing.T) {
	t.Parallel()
	b := breakage{File: "internal/counter/counter.go", Shipped: []byte(counterSrc),
		Broken: []byte(replaceOnce(counterSrc, "if c.n >= c.ceiling {", "if false {"))}
	assert.DeepEqual(t, b.where(), &Where{File: "internal/counter/counter.go", Func: "Counter.Add", First: 18, Last: 18})
}

func replaceOnce(s, old, new string) string {
	i := len(s)
	for j := 0; j+len(old) <= len(s); j++ {
		if s[j:j+len(old)] == old {
			i = j
			break
		}
	}
	return s[:i] + new + s[i+len(old):]
}
