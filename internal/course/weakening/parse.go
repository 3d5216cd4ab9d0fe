package weakening

// This file turns a catalog file's bytes into a Weakening: the header keys
// from the txtar comment, the before/after pairs from its sections.

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// ErrMalformed is returned (wrapped, with the file and the line or section
// at fault) when a catalog file cannot be read as a weakening.
var ErrMalformed = errors.New("weakening: malformed catalog entry")

// keys are the header keys a catalog file may set.
var keys = []string{"file", "tests", "expect"}

// Parse reads the catalog file at rel (relative to the module root,
// slash-separated, for example "chapters/ch02_cas_claim/weakenings/NAME.txtar")
// whose contents are data. The weakening's name is the file's name without
// Ext, its chapter the folder that holds the catalog folder. Parse checks
// the syntax only; call Validate for the rules.
func Parse(rel string, data []byte) (*Weakening, error) {
	w := &Weakening{
		Name: strings.TrimSuffix(path.Base(rel), Ext),
		Path: rel,
	}
	if dir := path.Dir(rel); path.Base(dir) == Dir {
		w.Chapter = path.Base(path.Dir(dir))
	}
	ar := txtar.Parse(data)
	if err := w.parseHeader(ar.Comment); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if err := w.parseEdits(ar.Files); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return w, nil
}

// parseHeader reads the summary and the keys (see ParseHeader).
func (w *Weakening) parseHeader(comment []byte) error {
	summary, lines, err := ParseHeader(comment, keys)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	for _, l := range lines {
		switch l.Key {
		case "file":
			w.File = l.Value
		case "tests":
			w.Tests = strings.Fields(l.Value)
		case "expect":
			w.Expect = l.Value
		}
	}
	w.Summary = summary
	return nil
}

// parseEdits pairs the archive's sections: before, after, before, after...
func (w *Weakening) parseEdits(files []txtar.File) error {
	for i := 0; i < len(files); i += 2 {
		if files[i].Name != "before" {
			return fmt.Errorf("%w: section %d is %q, want \"before\"", ErrMalformed, i+1, files[i].Name)
		}
		if i+1 == len(files) {
			return fmt.Errorf("%w: section %d (before) has no \"after\" section following it", ErrMalformed, i+1)
		}
		if files[i+1].Name != "after" {
			return fmt.Errorf("%w: section %d is %q, want \"after\"", ErrMalformed, i+2, files[i+1].Name)
		}
		w.Edits = append(w.Edits, Edit{Before: string(files[i].Data), After: string(files[i+1].Data)})
	}
	return nil
}
