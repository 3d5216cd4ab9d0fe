package exercise

// This file holds the rules an exercise file must keep on its own, before
// anything else is read: each kind has the keys it needs and none it
// would ignore.

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// testName is a top-level Go test's name.
var testName = regexp.MustCompile(`^Test[A-Za-z0-9_]*$`)

// Validate checks e against the rules of its kind. The error wraps
// ErrMalformed.
func (e *Exercise) Validate() error {
	if err := e.validate(); err != nil {
		return fmt.Errorf("%s: %w: %w", e.Path, ErrMalformed, err)
	}
	return nil
}

func (e *Exercise) validate() error {
	switch e.Kind {
	case Fix, Test, Build:
	case "":
		return fmt.Errorf("no kind: key (want fix, test or build)")
	default:
		return fmt.Errorf("kind %q: want fix, test or build", e.Kind)
	}
	switch {
	case !ValidName(e.Name, e.Kind):
		return fmt.Errorf("name %q: want %q and lowercase words joined by dashes", e.Name, string(e.Kind)+"-...")
	case e.Summary == "":
		return fmt.Errorf("no summary: the first line says what the learner does")
	case e.Property == "":
		return fmt.Errorf("no property: key (the first hint)")
	}
	if e.Expect != "" {
		if _, err := regexp.Compile(e.Expect); err != nil {
			return fmt.Errorf("expect: %w", err)
		}
	}
	if err := e.onlyKeysOfKind(); err != nil {
		return err
	}
	switch e.Kind {
	case Fix:
		return e.validateFix()
	case Test:
		return e.validateTest()
	default:
		return e.validateBuild()
	}
}

// validateFix checks what a fix exercise needs: the fault it hides, and a
// reason to expect when the fault is a mutant.
func (e *Exercise) validateFix() error {
	if e.Fault == "" {
		return fmt.Errorf("fix without fault: key (a weakening's name or a mutant's ID)")
	}
	if IsMutant(e.Fault) && e.Expect == "" {
		return fmt.Errorf("a fix whose fault is a mutant needs expect: (a mutant has none of its own)")
	}
	return nil
}

// validateTest checks what a test exercise needs: its target, the
// chapter's tests it withholds, the chaffs to reject and a weak test.
func (e *Exercise) validateTest() error {
	if err := e.validateTarget(); err != nil {
		return err
	}
	if len(e.Withhold) == 0 {
		return fmt.Errorf("test without withhold: key (the chapter's tests for the property)")
	}
	for _, name := range e.Withhold {
		if !testName.MatchString(name) {
			return fmt.Errorf("withhold: %q is not a top-level Go test name", name)
		}
	}
	if len(e.Chaffs) == 0 {
		return fmt.Errorf("test without chaff: lines (what the learner's test must reject)")
	}
	seen := map[string]bool{}
	for _, c := range e.Chaffs {
		if seen[c.ID] {
			return fmt.Errorf("chaff %s: given twice", c.ID)
		}
		seen[c.ID] = true
	}
	if strings.TrimSpace(e.Weak) == "" {
		return fmt.Errorf("test without a -- %s -- section (a weak learner test, for the proof)", sectionWeak)
	}
	return nil
}

// validateBuild checks what a build exercise needs: its target and the
// stub its function starts as.
func (e *Exercise) validateBuild() error {
	if err := e.validateTarget(); err != nil {
		return err
	}
	if strings.TrimSpace(e.Stub) == "" {
		return fmt.Errorf("build without a -- %s -- section (the body that fails clearly)", sectionStub)
	}
	return nil
}

// validateTarget checks File and Func.
func (e *Exercise) validateTarget() error {
	switch {
	case e.File == "" || e.Func == "":
		return fmt.Errorf("%s needs file: and func: (the mechanism function the property is about)", e.Kind)
	case e.File != path.Clean(e.File) || path.IsAbs(e.File) || !strings.HasPrefix(e.File, "internal/"):
		return fmt.Errorf("file %q: want a clean slash-separated path under internal/", e.File)
	case !strings.HasSuffix(e.File, ".go") || strings.HasSuffix(e.File, "_test.go"):
		return fmt.Errorf("file %q: want a non-test .go file", e.File)
	}
	return nil
}

// onlyKeysOfKind refuses keys and sections the kind would ignore: a key
// nobody reads is a mistake nobody notices.
func (e *Exercise) onlyKeysOfKind() error {
	type field struct {
		name  string
		set   bool
		kinds []Kind
	}
	for _, f := range []field{
		{"fault:", e.Fault != "", []Kind{Fix}},
		{"file:", e.File != "", []Kind{Test, Build}},
		{"func:", e.Func != "", []Kind{Test, Build}},
		{"region:", e.Region != "", []Kind{Test}},
		{"section:", e.Section != "", []Kind{Build}},
		{"withhold:", len(e.Withhold) > 0, []Kind{Test}},
		{"chaff:", len(e.Chaffs) > 0, []Kind{Test}},
		{"-- " + sectionWeak + " --", e.Weak != "", []Kind{Test}},
		{"-- " + sectionStub + " --", e.Stub != "", []Kind{Build}},
	} {
		if f.set && !slices.Contains(f.kinds, e.Kind) {
			return fmt.Errorf("%s is not used by a %s exercise", f.name, e.Kind)
		}
	}
	return nil
}
