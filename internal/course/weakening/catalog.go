package weakening

// This file loads the whole catalog: every chapter folder, the weakenings
// in its catalog folder, and the tests it excuses from ever failing.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// ErrDuplicateName is returned (wrapped) for a weakening whose name another
// catalog file in the module also uses: names are unique repo-wide, because
// a learner types only the name.
var ErrDuplicateName = errors.New("weakening: name used more than once")

// chapterPattern is what a chapter folder's name looks like: "ch", two
// digits, an underscore, words.
var chapterPattern = regexp.MustCompile(`^(ch[0-9]{2})_[a-z0-9_]+$`)

// Catalog is every chapter of a module and its weakenings.
type Catalog struct {
	Root     string     // the module root the catalog was read from
	Chapters []*Chapter // in folder-name order
}

// Chapter is one chapter folder and its catalog.
type Chapter struct {
	Name       string            // the folder's name, e.g. "ch02_cas_claim"
	Short      string            // the name's "chNN" prefix, e.g. "ch02"
	Weakenings []*Weakening      // well-formed entries, in name order
	Broken     []Broken          // entries that could not be read or broke a rule
	Excused    map[string]string // test name -> reason it never fails (from ExcuseFile)
	ExcuseErr  error             // why ExcuseFile could not be read; nil if it was (or is absent)
}

// Broken is a catalog file that is not a usable weakening.
type Broken struct {
	Name string // the catalog file's name without Ext
	Path string // the catalog file, relative to the module root
	Err  error  // wraps ErrMalformed or ErrDuplicateName
}

// Package returns the chapter's package pattern for the go command, relative
// to the module root: "./chapters/NAME/".
func (c *Chapter) Package() string { return "./" + ChaptersDir + "/" + c.Name + "/" }

// Load reads the catalog of the module at root: every folder under
// chapters/ named like a chapter, and the catalog files in its weakenings
// folder. A malformed or duplicated entry does not stop Load; it is
// recorded in its chapter's Broken list. Load returns an error only when a
// folder or file cannot be read.
func Load(root string) (*Catalog, error) {
	cat := &Catalog{Root: root}
	entries, err := os.ReadDir(filepath.Join(root, ChaptersDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	for _, e := range entries {
		m := chapterPattern.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil {
			continue
		}
		ch, err := loadChapter(root, e.Name(), m[1])
		if err != nil {
			return nil, fmt.Errorf("load catalog: %w", err)
		}
		cat.Chapters = append(cat.Chapters, ch)
	}
	cat.markDuplicates()
	return cat, nil
}

// loadChapter reads one chapter's catalog folder, if it has one.
func loadChapter(root, name, short string) (*Chapter, error) {
	ch := &Chapter{Name: name, Short: short, Excused: map[string]string{}}
	rel := path.Join(ChaptersDir, name, Dir)
	dir := filepath.Join(root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return ch, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		file := path.Join(rel, e.Name())
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		switch {
		case e.Name() == ExcuseFile:
			excused, err := ParseExcuses(data)
			if err != nil {
				ch.ExcuseErr = fmt.Errorf("%s: %w", file, err)
				continue
			}
			ch.Excused = excused
		case strings.HasSuffix(e.Name(), Ext):
			w, err := Parse(file, data)
			if err == nil {
				err = w.Validate()
			}
			if err != nil {
				ch.Broken = append(ch.Broken, Broken{Name: strings.TrimSuffix(e.Name(), Ext), Path: file, Err: err})
				continue
			}
			ch.Weakenings = append(ch.Weakenings, w)
		}
	}
	return ch, nil
}

// markDuplicates moves every weakening whose name is used more than once
// in the module to its chapter's Broken list.
func (cat *Catalog) markDuplicates() {
	where := map[string][]string{}
	for _, ch := range cat.Chapters {
		for _, w := range ch.Weakenings {
			where[w.Name] = append(where[w.Name], w.Path)
		}
		for _, b := range ch.Broken {
			where[b.Name] = append(where[b.Name], b.Path)
		}
	}
	for _, ch := range cat.Chapters {
		kept := ch.Weakenings[:0]
		for _, w := range ch.Weakenings {
			if paths := where[w.Name]; len(paths) > 1 {
				ch.Broken = append(ch.Broken, Broken{Name: w.Name, Path: w.Path,
					Err: fmt.Errorf("%s: %w: %s", w.Path, ErrDuplicateName, strings.Join(paths, ", "))})
				continue
			}
			kept = append(kept, w)
		}
		ch.Weakenings = kept
		sort.Slice(ch.Broken, func(i, j int) bool { return ch.Broken[i].Name < ch.Broken[j].Name })
	}
}

// Chapter returns the chapter named by arg: its folder name
// ("ch02_cas_claim") or its short form ("ch02").
func (cat *Catalog) Chapter(arg string) (*Chapter, bool) {
	for _, ch := range cat.Chapters {
		if arg == ch.Name || arg == ch.Short {
			return ch, true
		}
	}
	return nil, false
}

// Lookup returns the well-formed weakening called name, if there is one.
func (cat *Catalog) Lookup(name string) (*Weakening, bool) {
	for _, ch := range cat.Chapters {
		for _, w := range ch.Weakenings {
			if w.Name == name {
				return w, true
			}
		}
	}
	return nil, false
}

// LookupBroken returns the broken catalog entry called name, if there is
// one, so a caller can say why the name is unusable.
func (cat *Catalog) LookupBroken(name string) (Broken, bool) {
	for _, ch := range cat.Chapters {
		for _, b := range ch.Broken {
			if b.Name == name {
				return b, true
			}
		}
	}
	return Broken{}, false
}

// ChapterNames lists the chapters as "chNN (folder)", for messages that
// name what is allowed.
func (cat *Catalog) ChapterNames() string {
	var names []string
	for _, ch := range cat.Chapters {
		names = append(names, ch.Short+" ("+ch.Name+")")
	}
	if len(names) == 0 {
		return "none (no chapters/chNN_* folders)"
	}
	return strings.Join(names, ", ")
}
