package weakening

// This file applies a weakening's edits to the contents of its target: each
// before-text must occur exactly once in the contents as the earlier edits
// left them.

import (
	"errors"
	"fmt"
	"strings"
)

// Why an edit could not be applied; a *MatchError wraps one of them.
var (
	// ErrBeforeNotFound: the before-text does not occur in the target (the
	// source moved on since the weakening was written).
	ErrBeforeNotFound = errors.New("weakening: before-text not found")
	// ErrBeforeAmbiguous: the before-text occurs more than once, so the
	// edit would not say which occurrence it means.
	ErrBeforeAmbiguous = errors.New("weakening: before-text found more than once")
)

// MatchError reports an edit whose before-text does not occur exactly once
// in the target. errors.Is(err, ErrBeforeNotFound) or ErrBeforeAmbiguous
// says which.
type MatchError struct {
	File  string // the target, relative to the module root
	Edit  int    // 1-based position of the edit in the catalog file
	Count int    // how many times the before-text occurs
}

func (e *MatchError) Error() string {
	if e.Count == 0 {
		return fmt.Sprintf("before-text not found in %s (edit %d)", e.File, e.Edit)
	}
	return fmt.Sprintf("before-text found %d times in %s (edit %d); it must occur exactly once", e.Count, e.File, e.Edit)
}

// Unwrap returns ErrBeforeNotFound or ErrBeforeAmbiguous.
func (e *MatchError) Unwrap() error {
	if e.Count == 0 {
		return ErrBeforeNotFound
	}
	return ErrBeforeAmbiguous
}

// Apply returns src with w's edits made in order. It returns a *MatchError
// for the first edit whose before-text does not occur exactly once.
func (w *Weakening) Apply(src []byte) ([]byte, error) {
	s := string(src)
	for i, e := range w.Edits {
		if n := strings.Count(s, e.Before); n != 1 {
			return nil, &MatchError{File: w.File, Edit: i + 1, Count: n}
		}
		s = strings.Replace(s, e.Before, e.After, 1)
	}
	return []byte(s), nil
}
