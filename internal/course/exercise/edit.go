package exercise

// This file records a change drill makes to a file of the working tree:
// the bytes before and after, so it can be undone byte for byte, and so
// drill can tell whether the learner has changed the file since. Both
// `drill apply` and the exercises keep their changes this way.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Edit is one file drill changed, or created.
type Edit struct {
	File     string `json:"file"`          // relative to the module root, slash-separated
	Original []byte `json:"original"`      // the file before the edit; nil if it did not exist
	Before   string `json:"sha256_before"` // Digest(Original); "" if the file did not exist
	After    string `json:"sha256_after"`  // the file as drill left it
	// Started (an exercise's fix or build) is the file as start left it:
	// the point the learner's solution is a diff from.
	Started []byte `json:"started,omitempty"`
}

// NewEdit records changing file from original to after. existed is false
// for a file drill creates.
func NewEdit(file string, original []byte, existed bool, after []byte) Edit {
	e := Edit{File: file, After: Digest(after)}
	if existed {
		e.Original, e.Before = original, Digest(original)
	}
	return e
}

// Created reports whether drill created the file.
func (e Edit) Created() bool { return e.Before == "" }

// path returns the file's path under root.
func (e Edit) path(root string) string { return filepath.Join(root, filepath.FromSlash(e.File)) }

// Write writes after, the contents the edit recorded, keeping the file's
// mode (0o644 for a new file).
func (e Edit) Write(root string, after []byte) error {
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(e.path(root)); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(e.path(root)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(e.path(root), after, mode)
}

// FileState is what has become of an edited file since drill edited it.
type FileState int

// The states of an edited file.
const (
	// AsLeft: the file is as drill left it.
	AsLeft FileState = iota
	// Undone: the file is as it was before the edit (for a created file:
	// it is gone).
	Undone
	// Changed: the file is neither; the learner has worked on it.
	Changed
)

// State reads the file and says what has become of it; cur is its current
// contents (nil if it is gone).
func (e Edit) State(root string) (state FileState, cur []byte, err error) {
	cur, err = os.ReadFile(e.path(root))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if e.Created() {
			return Undone, nil, nil
		}
		return Changed, nil, nil
	case err != nil:
		return 0, nil, fmt.Errorf("%s: %w", e.File, err)
	case Digest(cur) == e.After:
		return AsLeft, cur, nil
	case !e.Created() && Digest(cur) == e.Before:
		return Undone, cur, nil
	}
	return Changed, cur, nil
}

// Undo puts the file back as it was before the edit: the original bytes,
// or no file at all if drill created it.
func (e Edit) Undo(root string) error {
	if e.Created() {
		if err := os.Remove(e.path(root)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return e.Write(root, e.Original)
}

// Digest returns the hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
