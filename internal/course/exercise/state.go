package exercise

// This file keeps the learner's working state, outside the tracked tree,
// in the git-ignored folder StateDir at the module root: progress.json
// (the current exercise, hints used, test scores, how often each was
// graded), verified.json (which saved solutions were verified here) and,
// per started exercise, what starting it changed (work/NAME.json). None of
// it decides a grade: a learner's record is their saved solutions (see
// solution.go), and reset needs none of it (see shipped.go). Nothing here
// is read by go test.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// StateDir is the folder, at the module root, where drill keeps the
// learner's state. It is in .gitignore.
const StateDir = ".drill"

// Progress is the learner's working record over every exercise. Its JSON
// is StateDir/progress.json. It counts hints and gradings; it never says
// an exercise is done (a verified solution does).
type Progress struct {
	// Current is the exercise hint and verify act on when given no name:
	// the one started last.
	Current   string             `json:"current,omitempty"`
	Exercises map[string]*Record `json:"exercises"`
}

// Record is the learner's working record of one exercise.
type Record struct {
	Hints int    `json:"hints"`           // how many hint levels the learner has seen
	Score *Score `json:"score,omitempty"` // test exercises: the last graded score
	// Verifies counts the gradings that finished, passing or not.
	Verifies int       `json:"verifies"`
	Started  time.Time `json:"started,omitzero"`
}

// Score is a test exercise's grade: how many chaffs the learner's tests
// rejected, out of how many, and the property each missed one breaks.
type Score struct {
	Caught int      `json:"caught"`
	Chaffs int      `json:"broken_copies"`
	Missed []string `json:"missed,omitempty"`
}

// Full reports whether every chaff was caught.
func (s Score) Full() bool { return s.Chaffs > 0 && s.Caught == s.Chaffs }

// Percent is the score out of 100, rounded down.
func (s Score) Percent() int {
	if s.Chaffs == 0 {
		return 0
	}
	return 100 * s.Caught / s.Chaffs
}

// Active returns the exercise whose changes are in this working tree and
// which is not done yet: the one whose chapter is red on purpose. It is
// the current exercise, if its start is recorded.
func Active(root string) (name string, ok bool, err error) {
	p, err := LoadProgress(root)
	if err != nil || p.Current == "" {
		return "", false, err
	}
	if _, ok, err := LoadWork(root, p.Current); err != nil || !ok {
		return "", false, err
	}
	return p.Current, true, nil
}

// record returns name's record, creating it.
func (p *Progress) record(name string) *Record {
	if p.Exercises == nil {
		p.Exercises = map[string]*Record{}
	}
	r := p.Exercises[name]
	if r == nil {
		r = &Record{}
		p.Exercises[name] = r
	}
	return r
}

// Work is what starting one exercise changed and learned, kept until the
// exercise is reset: StateDir/work/NAME.json.
type Work struct {
	Exercise string `json:"exercise"`
	Chapter  string `json:"chapter"`
	Edits    []Edit `json:"edits"`
	// Snapshot maps the mechanism's files and the chapter's test files to
	// their digests right after the start, so verify can tell what the
	// learner changed.
	Snapshot map[string]string `json:"snapshot"`
	// Where (fix) is where the fault sits in the file as started: the
	// second and third hints.
	Where *Where `json:"where,omitempty"`
	// Chaffs (test) are the chaffs, prepared once: the broken copies are
	// cached under StateDir/broken-copies/NAME/.
	Chaffs []Prepared `json:"chaffs,omitempty"`
}

// Where is a region of a file.
type Where struct {
	File  string `json:"file"`
	Func  string `json:"func"`
	First int    `json:"first"`
	Last  int    `json:"last"`
}

// statePath returns a path under root's StateDir.
func statePath(root string, elem ...string) string {
	return filepath.Join(append([]string{root, StateDir}, elem...)...)
}

// LoadProgress reads root's progress; a learner who has started nothing
// has an empty one.
func LoadProgress(root string) (*Progress, error) {
	p := &Progress{Exercises: map[string]*Record{}}
	if _, err := ReadState(root, "progress.json", p); err != nil {
		return nil, err
	}
	if p.Exercises == nil {
		p.Exercises = map[string]*Record{}
	}
	return p, nil
}

// Save writes p to root's StateDir.
func (p *Progress) Save(root string) error { return WriteState(root, "progress.json", p) }

// LoadWork reads what starting exercise name changed; ok is false if it
// was never started or has been reset.
func LoadWork(root, name string) (w *Work, ok bool, err error) {
	w = &Work{}
	ok, err = ReadState(root, "work/"+name+".json", w)
	if !ok || err != nil {
		return nil, false, err
	}
	return w, true, nil
}

// save writes w, without the shipped bytes of the files it edited: a
// copy of the shipped file in drill's state would print the hidden fault
// with one diff. Their blob ids and git's history bring them back
// (shippedBytes).
func (w *Work) save(root string) error {
	kept := *w
	kept.Edits = slices.Clone(w.Edits)
	for i := range kept.Edits {
		kept.Edits[i].Original = nil
	}
	return WriteState(root, "work/"+w.Exercise+".json", &kept)
}

// forget removes w's record and its cached chaffs.
func (w *Work) forget(root string) error {
	if err := os.RemoveAll(statePath(root, brokenCopies, w.Exercise)); err != nil {
		return fmt.Errorf("remove drill state: %w", err)
	}
	_ = os.Remove(statePath(root, brokenCopies)) // only if empty
	return RemoveState(root, "work/"+w.Exercise+".json")
}

// ReadState decodes the state file rel (slash-separated, under root's
// StateDir) into v; ok is false if there is no such file.
func ReadState(root, rel string, v any) (ok bool, err error) {
	name := statePath(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read drill state: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("read drill state %s: %w", name, err)
	}
	return true, nil
}

// WriteState writes v as the state file rel (slash-separated, under
// root's StateDir), replacing it atomically.
func WriteState(root, rel string, v any) error {
	name := statePath(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	if _, err := writeAtomically(name, append(data, '\n')); err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	return nil
}

// RemoveState removes the state file rel, then each folder above it up to
// StateDir itself that this leaves empty.
func RemoveState(root, rel string) error {
	name := statePath(root, filepath.FromSlash(rel))
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove drill state: %w", err)
	}
	top := statePath(root)
	for dir := filepath.Dir(name); len(dir) >= len(top); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil { // only succeeds if empty
			break
		}
	}
	return nil
}
