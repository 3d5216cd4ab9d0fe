package mutate

// This file reads the excuse file: the mutants no chapter test kills, each
// with a reason a reviewer can check.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// ExcuseFile, relative to the module root, lists excused mutants.
const ExcuseFile = "chapters/excused-mutants.txt"

// Kind is why a surviving mutant is excused.
type Kind string

// The kinds of excuse.
const (
	// Equivalent: no behaviour can tell the mutant apart from the original.
	Equivalent Kind = "equivalent"
	// Unreachable: the mutant changes what happens after a failure the
	// course cannot provoke, such as an error inside a driver call that
	// never fails. A mutant that decides authority is never unreachable.
	Unreachable Kind = "unreachable"
)

// Excuse is one line of the excuse file.
type Excuse struct {
	ID     string
	Kind   Kind
	Reason string
	Line   int
}

// ErrBadExcuse is wrapped by every malformed line of the excuse file.
var ErrBadExcuse = errors.New("mutate: malformed excuse")

// ParseExcuses reads an excuse file: one `ID KIND: reason` a line, KIND
// equivalent or unreachable; blank lines and lines starting with # are
// ignored.
func ParseExcuses(data []byte) (map[string]Excuse, error) {
	out := map[string]Excuse{}
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, rest, _ := strings.Cut(line, " ")
		kind, reason, found := strings.Cut(strings.TrimSpace(rest), ":")
		e := Excuse{ID: id, Kind: Kind(strings.TrimSpace(kind)), Reason: strings.TrimSpace(reason), Line: n}
		switch {
		case !found || e.Kind != Equivalent && e.Kind != Unreachable:
			errs = append(errs, fmt.Errorf("%w: line %d: want `ID equivalent: reason` or `ID unreachable: reason`", ErrBadExcuse, n))
		case e.Reason == "":
			errs = append(errs, fmt.Errorf("%w: line %d: %s has no reason", ErrBadExcuse, n, id))
		case out[id].ID != "":
			errs = append(errs, fmt.Errorf("%w: line %d: %s is excused twice", ErrBadExcuse, n, id))
		default:
			out[id] = e
		}
	}
	return out, errors.Join(errs...)
}
