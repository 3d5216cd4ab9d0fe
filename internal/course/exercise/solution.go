package exercise

// This file keeps the learner's solutions where the learner can commit
// them: chapters/<chapter>/solutions/<exercise>.txtar, written when verify
// says done. A fix or a build is saved as the diff of each file it
// concerns against the shipped code; a test exercise as the learner's test
// file. `drill grade` applies each to a fresh copy of the shipped tree and
// verifies it again, so a learner's record is their code, never a file
// that says "done".

import (
	"context"
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

// Solution is one saved solution.
type Solution struct {
	Exercise string
	Parts    []Part
}

// Part is one file of a solution.
type Part struct {
	File string // relative to the module root
	// Diff is true when Data is a unified diff against the shipped file
	// (fix, build); false when Data is the whole file (a learner test file).
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
			"Commit it. go run ./tools/drill grade verifies it again from the shipped code.\n", e.Name, e.Kind, e.Chapter))}
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
	s := &Solution{Exercise: e.Name}
	for _, f := range txtar.Parse(data).Files {
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
// which w started: each shipped file it changed as a diff against its
// shipped bytes (Edit.Original), and a test exercise's learner file whole.
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
		s.Parts = append(s.Parts, Part{File: ed.File, Diff: true,
			Data: diff.Diff("a/"+ed.File, ed.Original, "b/"+ed.File, cur)})
	}
	return s, nil
}

// save writes s as e's solution file under root, atomically, and returns
// the digest of what it wrote.
func (s *Solution) save(root string, e *Exercise) (string, error) {
	data := s.Format(e)
	if got := len(txtar.Parse(data).Files); got != len(s.Parts) {
		return "", fmt.Errorf("save your solution: a line of it reads as a section marker (-- NAME --); change that line")
	}
	name := filepath.Join(root, filepath.FromSlash(e.SolutionFile()))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return "", fmt.Errorf("save your solution: %w", err)
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return "", fmt.Errorf("save your solution: %w", err)
	}
	if err := os.Rename(tmp, name); err != nil {
		return "", fmt.Errorf("save your solution: %w", err)
	}
	return Digest(data), nil
}

// Apply writes s into the tree under root, which must hold e started:
// each diff applied to its file's shipped bytes (from shipped, the list of
// root's tree), each whole file written as it is. A part naming a file
// the exercise does not touch is refused: a solution concerns its
// exercise's files alone.
func (s *Solution) Apply(ctx context.Context, set *Set, e *Exercise, shipped Shipped, gitRoot string) error {
	files, err := set.Files(e)
	if err != nil {
		return err
	}
	for _, p := range s.Parts {
		if !slices.Contains(files, p.File) {
			return fmt.Errorf("%s: %s is not a file of %s (it touches %s)", e.SolutionFile(), p.File, e.Name, strings.Join(files, ", "))
		}
		data := p.Data
		if p.Diff {
			base, err := shipped.Bytes(ctx, set.Root, gitRoot, p.File)
			if err != nil {
				return err
			}
			if data, err = applyPatch(base, string(p.Data)); err != nil {
				return fmt.Errorf("%s: %s: %w (the shipped code changed since the solution was saved?)", e.SolutionFile(), p.File, err)
			}
		}
		if err := os.WriteFile(filepath.Join(set.Root, filepath.FromSlash(p.File)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
