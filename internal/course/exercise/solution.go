package exercise

// This file keeps the learner's solutions where the learner can commit
// them: chapters/<chapter>/solutions/<exercise>.txtar, written when verify
// says done. A fix or a build is saved as the diff of each file it
// concerns from the file as start left it (the fault hidden, or the stub)
// to the learner's; a test exercise as the learner's test file. `drill
// grade` starts the exercise in a fresh copy of the course, applies each
// diff to the file as that start leaves it, and verifies it again. So a
// solution is the learner's work: an empty diff, or one that changes
// only comments, leaves the fault in place and fails. A learner's record
// is their code, never a file that says "done".

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// SolutionsDir is the folder, inside a chapter folder, of the learner's
// saved solutions.
const SolutionsDir = "solutions"

// ErrNoSolution is returned (wrapped) for an exercise with no saved solution.
var ErrNoSolution = errors.New("exercise: no saved solution")

// ErrOldSolution is returned (wrapped) for a solution saved by an older
// drill as a diff against the shipped code. Such a diff cannot tell a
// repair from no change at all (a repair that restores the shipped code
// is an empty diff), so it is never counted; the learner saves it again.
var ErrOldSolution = errors.New("saved by an older drill as a diff against the shipped code, which cannot show your repair")

// ErrNoChange is returned (wrapped) when a solution, applied to the
// starting point, changes no code: it is empty, or it changes only
// comments and spacing, so the fault or the stub is still there.
var ErrNoChange = errors.New("changes no code from where the exercise starts (comments and spacing do not count)")

// fromStart is the comment line that marks a solution whose diffs run
// from the exercise's starting point.
const fromStart = "from: start"

// Solution is one saved solution.
type Solution struct {
	Exercise string
	Parts    []Part
	// FromStart is true when each diff runs from the file as start left
	// it; false for a solution saved by an older drill (ErrOldSolution).
	FromStart bool
}

// Part is one file of a solution.
type Part struct {
	File string // relative to the module root
	// Diff is true when Data is a unified diff from the file as the
	// exercise's start left it (fix, build); false when Data is the whole
	// file (a learner test file).
	Diff bool
	Data []byte
}

// SolutionFile returns where e's solution is saved, relative to the
// module root.
func (e *Exercise) SolutionFile() string {
	return path.Join(weakening.ChaptersDir, e.Chapter, SolutionsDir, e.Name+".txtar")
}

// section names of a solution file: "diff PATH" and "file PATH".
const (
	diffSection = "diff "
	fileSection = "file "
)

// Format returns s as its file holds it.
func (s *Solution) Format(e *Exercise) []byte {
	ar := &txtar.Archive{Comment: []byte(fmt.Sprintf(
		"Your solution of %s (%s, %s), saved by drill verify.\n"+
			"Each diff runs from the file as drill start left it to yours.\n"+
			"Commit it. go run ./tools/drill grade verifies it again from the course.\n\n%s\n",
		e.Name, e.Kind, e.Chapter, fromStart))}
	for _, p := range s.Parts {
		name := fileSection + p.File
		if p.Diff {
			name = diffSection + p.File
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: p.Data})
	}
	return txtar.Format(ar)
}

// LoadSolution reads e's saved solution under root.
func LoadSolution(root string, e *Exercise) (*Solution, []byte, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.SolutionFile())))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: %w", e.Name, ErrNoSolution)
	}
	if err != nil {
		return nil, nil, err
	}
	ar := txtar.Parse(data)
	s := &Solution{Exercise: e.Name, FromStart: slices.Contains(strings.Split(string(ar.Comment), "\n"), fromStart)}
	for _, f := range ar.Files {
		var p Part
		switch {
		case strings.HasPrefix(f.Name, diffSection):
			p = Part{File: strings.TrimPrefix(f.Name, diffSection), Diff: true, Data: f.Data}
		case strings.HasPrefix(f.Name, fileSection):
			p = Part{File: strings.TrimPrefix(f.Name, fileSection), Data: f.Data}
		default:
			return nil, nil, fmt.Errorf("%s: section %q: want \"diff PATH\" or \"file PATH\"", e.SolutionFile(), f.Name)
		}
		s.Parts = append(s.Parts, p)
	}
	if len(s.Parts) == 0 {
		return nil, nil, fmt.Errorf("%s: holds no file", e.SolutionFile())
	}
	return s, data, nil
}

// solutionOf reads the learner's solution of e from the working tree,
// which w started: each file start changed as a diff from what start left
// there (Edit.Started) to the learner's bytes, and a test exercise's
// learner file whole.
func solutionOf(root string, e *Exercise, w *Work) (*Solution, error) {
	s := &Solution{Exercise: e.Name}
	for _, ed := range w.Edits {
		cur, err := os.ReadFile(ed.path(root))
		if err != nil {
			return nil, fmt.Errorf("save your solution: %w", err)
		}
		if ed.Created() {
			s.Parts = append(s.Parts, Part{File: ed.File, Data: cur})
			continue
		}
		if e.Kind == Test {
			continue // the chapter's own tests come back as they were
		}
		if ed.Started == nil {
			return nil, fmt.Errorf("save your solution: %s was started by an older drill, which kept no starting point to diff from; "+
				"copy your %s somewhere, run go run ./tools/drill reset %s, start it again and redo the change", e.Name, ed.File, e.Name)
		}
		s.Parts = append(s.Parts, Part{File: ed.File, Diff: true,
			Data: diff.Diff("a/"+ed.File, ed.Started, "b/"+ed.File, cur)})
	}
	s.FromStart = true
	return s, nil
}

// save writes s as e's solution file under root, atomically, and returns
// the digest of what it wrote. An earlier solution that differs (one the
// learner committed, say) is never overwritten unseen: it is kept aside
// first, and aside names the copy.
func (s *Solution) save(root string, e *Exercise) (digest, aside string, err error) {
	data := s.Format(e)
	if got := len(txtar.Parse(data).Files); got != len(s.Parts) {
		return "", "", fmt.Errorf("save your solution: a line of it reads as a section marker (-- NAME --); change that line")
	}
	name := filepath.Join(root, filepath.FromSlash(e.SolutionFile()))
	if old, err := os.ReadFile(name); err == nil && !bytes.Equal(old, data) {
		keep := &keeper{root: root, name: e.Name}
		if err := keep.add(e.SolutionFile(), old); err != nil {
			return "", "", err
		}
		aside = keep.aside[0]
	}
	if digest, err = writeAtomically(name, data); err != nil {
		return "", "", fmt.Errorf("save your solution: %w", err)
	}
	return digest, aside, nil
}

// writeAtomically writes data to name through a temporary file of its
// own (two drills saving at once never share one) and returns the digest
// of what it wrote.
func writeAtomically(name string, data []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".tmp-*")
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", werr
	}
	return Digest(data), nil
}

// Apply writes s into the tree under set.Root, where e has just been
// started: each diff applied to the file as that start left it, each
// whole file written as it is. It refuses a solution of the old format, a
// part naming a file the exercise does not touch (a solution concerns its
// exercise's files alone), and a fix or build whose diffs change no code
// (ErrNoChange): that leaves the fault or the stub in place.
func (s *Solution) Apply(set *Set, e *Exercise) error {
	files, err := set.Files(e)
	if err != nil {
		return err
	}
	changed := false
	for _, p := range s.Parts {
		if p.Diff && !s.FromStart {
			return fmt.Errorf("%s: %w; save it again: go run ./tools/drill start %s, redo the repair, go run ./tools/drill verify %s",
				e.SolutionFile(), ErrOldSolution, e.Name, e.Name)
		}
		if !slices.Contains(files, p.File) {
			return fmt.Errorf("%s: %s is not a file of %s (it touches %s)", e.SolutionFile(), p.File, e.Name, strings.Join(files, ", "))
		}
		name := filepath.Join(set.Root, filepath.FromSlash(p.File))
		data := p.Data
		if p.Diff {
			start, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			if data, err = applyPatch(start, string(p.Data)); err != nil {
				return fmt.Errorf("%s: %s: %w (the course's starting point changed since the solution was saved?)", e.SolutionFile(), p.File, err)
			}
			changed = changed || !sameCode(start, data)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return err
		}
	}
	if e.Kind != Test && !changed {
		what := "the fault"
		if e.Kind == Build {
			what = "the stub"
		}
		return fmt.Errorf("%s %w: it leaves %s in place", e.SolutionFile(), ErrNoChange, what)
	}
	return nil
}
