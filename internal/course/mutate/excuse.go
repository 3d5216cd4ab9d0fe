package mutate

// This file reads the excuse file: the mutants no chapter test kills, each
// with a reason a reviewer can check.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExcuseDir, relative to the module root, holds the excuse files: one per
// mechanism package, named after it (mailbox.txt), so a reviewer reads the
// excuses of one package together.
const ExcuseDir = "chapters/excused-mutants"

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

// Excuse is one line of an excuse file.
type Excuse struct {
	ID     string
	Kind   Kind
	Reason string
	File   string // the excuse file, relative to the module root
	Line   int
}

// Where names the excuse's line for a message: file and line number.
func (e Excuse) Where() string { return fmt.Sprintf("%s:%d", e.File, e.Line) }

// ErrBadExcuse is wrapped by every malformed line of the excuse file.
var ErrBadExcuse = errors.New("mutate: malformed excuse")

// ParseExcuses reads an excuse file: one `ID KIND: reason` a line, KIND
// equivalent or unreachable; blank lines and lines starting with # are
// ignored. If want is not empty, every ID must be a mutant of the package
// named want (the file's own name).
func ParseExcuses(data []byte, want string) (map[string]Excuse, error) {
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
		pkg, _, _ := strings.Cut(id, ":")
		switch {
		case !found || e.Kind != Equivalent && e.Kind != Unreachable:
			errs = append(errs, fmt.Errorf("%w: line %d: want `ID equivalent: reason` or `ID unreachable: reason`", ErrBadExcuse, n))
		case e.Reason == "":
			errs = append(errs, fmt.Errorf("%w: line %d: %s has no reason", ErrBadExcuse, n, id))
		case want != "" && pkg != want:
			errs = append(errs, fmt.Errorf("%w: line %d: %s is a mutant of %s; excuse it in %s.txt", ErrBadExcuse, n, id, pkg, pkg))
		case out[id].ID != "":
			errs = append(errs, fmt.Errorf("%w: line %d: %s is excused twice", ErrBadExcuse, n, id))
		default:
			out[id] = e
		}
	}
	return out, errors.Join(errs...)
}

// ReadExcuses reads every excuse file in root's ExcuseDir; a tree without
// one excuses nothing. Malformed lines are returned as one error, and the
// well-formed ones still apply.
func ReadExcuses(root string) (map[string]Excuse, error) {
	out := map[string]Excuse{}
	files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(ExcuseDir), "*.txt"))
	if err != nil {
		return out, err
	}
	var errs []error
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rel := ExcuseDir + "/" + filepath.Base(f)
		ex, err := ParseExcuses(data, strings.TrimSuffix(filepath.Base(f), ".txt"))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", rel, err))
		}
		for id, e := range ex {
			e.File = rel
			out[id] = e
		}
	}
	return out, errors.Join(errs...)
}
