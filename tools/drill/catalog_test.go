package main

// These tests hold the repository's own catalog to its rules: every entry
// is well formed, names are unique, each chapter has at least three
// weakenings, and each chapter README names exactly its weakenings with
// the command a learner types.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/course/drill"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// loadRepo loads the catalog of the repository this test is part of.
func loadRepo(t *testing.T) *weakening.Catalog {
	t.Helper()
	root, err := drill.FindRoot(".")
	assert.NilError(t, err)
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	if len(cat.Chapters) == 0 {
		t.Fatal("no chapters/chNN_* folders found: nothing to check")
	}
	return cat
}

func TestEveryCatalogEntryIsWellFormed(t *testing.T) {
	t.Parallel()
	for _, ch := range loadRepo(t).Chapters {
		for _, b := range ch.Broken {
			if !errors.Is(b.Err, weakening.ErrDuplicateName) {
				t.Errorf("%s: %v", b.Path, b.Err)
			}
		}
		if ch.ExcuseErr != nil {
			t.Errorf("%v", ch.ExcuseErr)
		}
	}
}

func TestWeakeningNamesAreUniqueAcrossTheRepository(t *testing.T) {
	t.Parallel()
	for _, ch := range loadRepo(t).Chapters {
		for _, b := range ch.Broken {
			if errors.Is(b.Err, weakening.ErrDuplicateName) {
				t.Errorf("%v: a learner types only the name, so it must name one weakening", b.Err)
			}
		}
	}
}

func TestEveryChapterHasAtLeastThreeWeakenings(t *testing.T) {
	t.Parallel()
	for _, ch := range loadRepo(t).Chapters {
		if n := len(ch.Weakenings) + len(ch.Broken); n < 3 {
			t.Errorf("chapters/%s has %d weakenings in %s/; want at least 3", ch.Name, n, weakening.Dir)
		}
	}
}

func TestChapterReadmeNamesEveryWeakening(t *testing.T) {
	t.Parallel()
	cat := loadRepo(t)
	for _, ch := range cat.Chapters {
		names, err := readmeTryNames(cat.Root, ch)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, w := range allNames(ch) {
			if !slices.Contains(names, w) {
				t.Errorf("chapters/%s/README.md never says %q: every weakening needs its try line in the text",
					ch.Name, weakening.TryCommand+" "+w)
			}
		}
	}
}

func TestChapterReadmeTryLinesNameThatChaptersWeakenings(t *testing.T) {
	t.Parallel()
	cat := loadRepo(t)
	for _, ch := range cat.Chapters {
		names, err := readmeTryNames(cat.Root, ch)
		if err != nil {
			continue // TestChapterReadmeNamesEveryWeakening reports it
		}
		for _, name := range names {
			if slices.Contains(allNames(ch), name) {
				continue
			}
			if w, ok := cat.Lookup(name); ok {
				t.Errorf("chapters/%s/README.md says %q, but %s is a weakening of %s", ch.Name,
					weakening.TryCommand+" "+name, name, w.Chapter)
				continue
			}
			t.Errorf("chapters/%s/README.md says %q, but there is no %s/%s/%s%s", ch.Name,
				weakening.TryCommand+" "+name, ch.Name, weakening.Dir, name, weakening.Ext)
		}
	}
}

// readmeTryNames returns the weakening names a chapter's README passes to
// the try command. A chapter with weakenings must have a README.
func readmeTryNames(root string, ch *weakening.Chapter) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, weakening.ChaptersDir, ch.Name, "README.md"))
	if errors.Is(err, os.ErrNotExist) && len(allNames(ch)) > 0 {
		return nil, fmt.Errorf("chapters/%s has %d weakenings but no README.md to teach them", ch.Name, len(allNames(ch)))
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return weakening.TryNames(data), nil
}

// allNames returns the names of every catalog file of a chapter, usable
// or not.
func allNames(ch *weakening.Chapter) []string {
	var names []string
	for _, w := range ch.Weakenings {
		names = append(names, w.Name)
	}
	for _, b := range ch.Broken {
		names = append(names, b.Name)
	}
	return names
}
