package drill

// This file keeps the record of what `drill apply` changed in the working
// tree, so `drill restore` undoes exactly that and nothing else. The record
// is an exercise.Edit, the same one the exercises keep.

import (
	"path/filepath"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// StateDir is the folder, at the module root, where drill keeps its state.
// It belongs in .gitignore.
const StateDir = exercise.StateDir

// stateFile is the record of the applied weakening, inside StateDir.
const stateFile = "applied.json"

// applied records one `drill apply`: which weakening, and the edit of its
// file, so restore can put back exactly what was there and can tell
// whether the learner changed the file since.
type applied struct {
	Name    string `json:"name"`
	Chapter string `json:"chapter"`
	exercise.Edit
}

// statePath returns the state file's path under root.
func statePath(root string) string { return filepath.Join(root, StateDir, stateFile) }

// readApplied returns the record of the applied weakening, and false if
// nothing is applied.
func readApplied(root string) (applied, bool, error) {
	var a applied
	ok, err := exercise.ReadState(root, stateFile, &a)
	return a, ok, err
}

// writeApplied records a, replacing the file atomically.
func writeApplied(root string, a applied) error { return exercise.WriteState(root, stateFile, a) }

// forgetApplied removes the record, and StateDir if that leaves it empty.
func forgetApplied(root string) error { return exercise.RemoveState(root, stateFile) }
