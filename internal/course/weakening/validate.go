package weakening

// This file holds the catalog's rules: what a well-formed weakening names,
// targets and expects, checked before anything is run.

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Validate checks w against the catalog's rules: a well-formed name; a
// target that is a non-test .go file under internal/ (the go command's
// -overlay reaches only .go files); at least one test, each named like a
// Go test; an expect pattern that compiles; at least one edit, none with
// an empty before-text or a no-op replacement. The error wraps ErrMalformed.
func (w *Weakening) Validate() error {
	if err := w.validate(); err != nil {
		return fmt.Errorf("%s: %w: %w", w.Path, ErrMalformed, err)
	}
	return nil
}

func (w *Weakening) validate() error {
	switch {
	case !ValidName(w.Name):
		return fmt.Errorf("name %q: want lowercase words joined by dashes", w.Name)
	case w.Summary == "":
		return fmt.Errorf("no summary: the first line should say the mistake in a learner's words")
	case w.File == "":
		return fmt.Errorf("no file: key")
	case w.File != path.Clean(w.File) || path.IsAbs(w.File) || strings.Contains(w.File, `\`):
		return fmt.Errorf("file %q: want a clean slash-separated path relative to the module root", w.File)
	case !strings.HasPrefix(w.File, "internal/"):
		return fmt.Errorf("file %q: the target must live under internal/", w.File)
	case !strings.HasSuffix(w.File, ".go") || strings.HasSuffix(w.File, "_test.go"):
		return fmt.Errorf("file %q: the target must be a non-test .go file (-overlay reaches only .go files)", w.File)
	case len(w.Tests) == 0:
		return fmt.Errorf("no tests: key naming the tests that must fail")
	case len(w.Edits) == 0:
		return fmt.Errorf("no -- before -- / -- after -- sections")
	}
	for _, t := range w.Tests {
		if !testPattern.MatchString(t) {
			return fmt.Errorf("tests: %q is not a Go test name (want TestName, FuzzName or TestName/subtest)", t)
		}
	}
	if w.Expect != "" {
		if _, err := regexp.Compile(w.Expect); err != nil {
			return fmt.Errorf("expect: %w", err)
		}
	}
	for i, e := range w.Edits {
		if strings.TrimSpace(e.Before) == "" {
			return fmt.Errorf("edit %d: empty before-text", i+1)
		}
		if e.Before == e.After {
			return fmt.Errorf("edit %d: after-text equals before-text, nothing would change", i+1)
		}
	}
	return nil
}
