package exercise

// This file turns an exercise file's bytes into an Exercise: the summary
// and keys from the txtar comment, the source text from its sections.

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// ErrMalformed is returned (wrapped, with the file and the line or section
// at fault) when a file cannot be read as an exercise or breaks a rule.
var ErrMalformed = errors.New("exercise: malformed exercise file")

// keys are the header keys an exercise file may set; chaff may repeat.
var keys = []string{"kind", "property", "expect", "fault", "file", "func", "region", "section", "withhold", "chaff"}

// Section names.
const (
	sectionStub = "stub" // build: Func's new body
	sectionWeak = "weak" // test: a deliberately weak learner test file
)

// Parse reads the exercise file at rel (relative to the module root,
// slash-separated, e.g. "chapters/ch02_cas_claim/exercises/NAME.txtar")
// whose contents are data. Its name is the file's name without Ext, its
// chapter the folder holding the exercises folder. Parse checks the syntax
// only; Validate checks the rules.
func Parse(rel string, data []byte) (*Exercise, error) {
	e := &Exercise{Name: strings.TrimSuffix(path.Base(rel), Ext), Path: rel}
	if dir := path.Dir(rel); path.Base(dir) == Dir {
		e.Chapter = path.Base(path.Dir(dir))
	}
	ar := txtar.Parse(data)
	if err := e.parseHeader(ar.Comment); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	for _, f := range ar.Files {
		switch f.Name {
		case sectionStub:
			e.Stub = string(f.Data)
		case sectionWeak:
			e.Weak = string(f.Data)
		default:
			return nil, fmt.Errorf("%s: %w: section %q: want %q or %q", rel, ErrMalformed, f.Name, sectionStub, sectionWeak)
		}
	}
	return e, nil
}

// parseHeader reads the summary and the keys (see weakening.ParseHeader);
// chaff is the one key that may be given more than once.
func (e *Exercise) parseHeader(comment []byte) error {
	summary, lines, err := weakening.ParseHeader(comment, keys, "chaff")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	for _, l := range lines {
		switch l.Key {
		case "kind":
			e.Kind = Kind(l.Value)
		case "property":
			e.Property = l.Value
		case "expect":
			e.Expect = l.Value
		case "fault":
			fault, err := decodeFault(l.Value)
			if err != nil {
				return fmt.Errorf("%w: line %d: %w", ErrMalformed, l.Line, err)
			}
			e.Fault = fault
		case "file":
			e.File = l.Value
		case "func":
			e.Func = l.Value
		case "region":
			e.Region = l.Value
		case "section":
			e.Section = l.Value
		case "withhold":
			e.Withhold = strings.Fields(l.Value)
		case "chaff":
			id, property, ok := strings.Cut(l.Value, "|")
			id, property = strings.TrimSpace(id), strings.TrimSpace(property)
			if !ok || id == "" || property == "" {
				return fmt.Errorf("%w: line %d: chaff: want \"NAME-OR-MUTANT-ID | the property it breaks\"", ErrMalformed, l.Line)
			}
			e.Chaffs = append(e.Chaffs, Chaff{ID: id, Property: property})
		}
	}
	e.Summary = summary
	return nil
}
