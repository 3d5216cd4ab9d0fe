package exercise

// This file loads every chapter's exercises and ties each to the catalog:
// a fault or chaff that names a weakening must name a usable one.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// ErrUnknownWeakening is returned (wrapped) for an exercise whose fault or
// chaff names no usable weakening.
var ErrUnknownWeakening = errors.New("exercise: names no usable weakening")

// ErrDuplicateName is returned (wrapped) for an exercise whose name another
// exercise or a weakening also uses: a learner types only the name.
var ErrDuplicateName = errors.New("exercise: name used more than once")

// Set is every exercise of a module.
type Set struct {
	Root      string
	Catalog   *weakening.Catalog
	Exercises []*Exercise // by chapter, then kind (fix, test, build), then name
	Broken    []Broken
}

// Broken is an exercise file that cannot be used, and why.
type Broken struct {
	Name, Chapter, Path string
	Err                 error
}

// Load reads the exercises of every chapter in cat, the catalog of the
// module at cat.Root. A malformed exercise does not stop Load; it goes to
// Broken. Load returns an error only when a folder or file cannot be read.
func Load(cat *weakening.Catalog) (*Set, error) {
	s := &Set{Root: cat.Root, Catalog: cat}
	for _, ch := range cat.Chapters {
		rel := path.Join(weakening.ChaptersDir, ch.Name, Dir)
		entries, err := os.ReadDir(filepath.Join(cat.Root, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load exercises: %w", err)
		}
		for _, ent := range entries {
			if ent.IsDir() || !strings.HasSuffix(ent.Name(), Ext) {
				continue
			}
			file := path.Join(rel, ent.Name())
			data, err := os.ReadFile(filepath.Join(cat.Root, filepath.FromSlash(file)))
			if err != nil {
				return nil, fmt.Errorf("load exercises: %w", err)
			}
			e, err := Parse(file, data)
			if err == nil {
				err = e.Validate()
			}
			if err == nil {
				err = e.resolve(cat)
			}
			if err != nil {
				s.Broken = append(s.Broken, Broken{Name: strings.TrimSuffix(ent.Name(), Ext), Chapter: ch.Name, Path: file, Err: err})
				continue
			}
			s.Exercises = append(s.Exercises, e)
		}
	}
	s.markDuplicates()
	sort.SliceStable(s.Exercises, func(i, j int) bool {
		a, b := s.Exercises[i], s.Exercises[j]
		if a.Chapter != b.Chapter {
			return a.Chapter < b.Chapter
		}
		if a.Kind != b.Kind {
			return a.Kind.order() < b.Kind.order()
		}
		return a.Name < b.Name
	})
	return s, nil
}

// resolve checks e's references to the catalog and fills in what the
// catalog says for it: a weakening fault's expect pattern.
func (e *Exercise) resolve(cat *weakening.Catalog) error {
	if e.Kind == Fix && !IsMutant(e.Fault) {
		w, ok := cat.Lookup(e.Fault)
		if !ok {
			return fmt.Errorf("%s: fault %s: %w", e.Path, e.Fault, ErrUnknownWeakening)
		}
		if e.Expect == "" {
			e.Expect = w.Expect
		}
	}
	for _, c := range e.Chaffs {
		if !IsMutant(c.ID) {
			if _, ok := cat.Lookup(c.ID); !ok {
				return fmt.Errorf("%s: chaff %s: %w", e.Path, c.ID, ErrUnknownWeakening)
			}
		}
	}
	return nil
}

// markDuplicates moves every exercise whose name is used twice, by
// exercises or by an exercise and a weakening, to Broken.
func (s *Set) markDuplicates() {
	count := map[string]int{}
	for _, e := range s.Exercises {
		count[e.Name]++
	}
	for _, b := range s.Broken {
		count[b.Name]++
	}
	kept := s.Exercises[:0]
	for _, e := range s.Exercises {
		_, isWeakening := s.Catalog.Lookup(e.Name)
		if count[e.Name] > 1 || isWeakening {
			s.Broken = append(s.Broken, Broken{Name: e.Name, Chapter: e.Chapter, Path: e.Path,
				Err: fmt.Errorf("%s: %w", e.Path, ErrDuplicateName)})
			continue
		}
		kept = append(kept, e)
	}
	s.Exercises = kept
	sort.Slice(s.Broken, func(i, j int) bool { return s.Broken[i].Path < s.Broken[j].Path })
}

// Lookup returns the usable exercise called name.
func (s *Set) Lookup(name string) (*Exercise, bool) {
	for _, e := range s.Exercises {
		if e.Name == name {
			return e, true
		}
	}
	return nil, false
}

// LookupBroken returns the unusable exercise file called name, so a caller
// can say why it cannot be used.
func (s *Set) LookupBroken(name string) (Broken, bool) {
	for _, b := range s.Broken {
		if b.Name == name {
			return b, true
		}
	}
	return Broken{}, false
}

// InChapter returns the exercises of the chapter folder called chapter.
func (s *Set) InChapter(chapter string) []*Exercise {
	var out []*Exercise
	for _, e := range s.Exercises {
		if e.Chapter == chapter {
			out = append(out, e)
		}
	}
	return out
}
