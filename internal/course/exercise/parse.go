package exercise

// This file turns an exercise file's bytes into an Exercise: the summary
// and keys from the txtar comment, the source text from its sections.

import (
	"bufio"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
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

// parseHeader reads the summary (the lines before the first key) and the
// keys. After the first key line, every non-blank line must be a key.
func (e *Exercise) parseHeader(comment []byte) error {
	var summary []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(string(comment)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		key, value, isKey := splitKey(line)
		if !isKey {
			if len(seen) > 0 {
				return fmt.Errorf("%w: line %d: %q is not a key line (want one of %s: VALUE)",
					ErrMalformed, n, line, strings.Join(keys, ", "))
			}
			summary = append(summary, line)
			continue
		}
		if seen[key] && key != "chaff" {
			return fmt.Errorf("%w: line %d: %s: given twice", ErrMalformed, n, key)
		}
		seen[key] = true
		switch key {
		case "kind":
			e.Kind = Kind(value)
		case "property":
			e.Property = value
		case "expect":
			e.Expect = value
		case "fault":
			e.Fault = value
		case "file":
			e.File = value
		case "func":
			e.Func = value
		case "region":
			e.Region = value
		case "section":
			e.Section = value
		case "withhold":
			e.Withhold = strings.Fields(value)
		case "chaff":
			id, property, ok := strings.Cut(value, "|")
			id, property = strings.TrimSpace(id), strings.TrimSpace(property)
			if !ok || id == "" || property == "" {
				return fmt.Errorf("%w: line %d: chaff: want \"NAME-OR-MUTANT-ID | the property it breaks\"", ErrMalformed, n)
			}
			e.Chaffs = append(e.Chaffs, Chaff{ID: id, Property: property})
		}
	}
	e.Summary = strings.Join(summary, " ")
	return nil
}

// splitKey reports whether line is "key: value" for one of keys.
func splitKey(line string) (key, value string, ok bool) {
	k, v, found := strings.Cut(line, ":")
	if !found || !slices.Contains(keys, k) {
		return "", "", false
	}
	return k, strings.TrimSpace(v), true
}
