package drill

// This file keeps the record of what `drill apply` changed in the working
// tree, so `drill restore` undoes exactly that and nothing else.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// StateDir is the folder, at the module root, where drill keeps its state.
// It belongs in .gitignore.
const StateDir = ".drill"

// stateFile is the record of the applied weakening, inside StateDir.
const stateFile = "applied.json"

// applied records one `drill apply`: which weakening, which file, and the
// file's bytes before and after, so restore can put back exactly what was
// there and can tell whether the learner changed the file since.
type applied struct {
	Name     string `json:"name"`
	Chapter  string `json:"chapter"`
	File     string `json:"file"`     // relative to the module root, slash-separated
	Original []byte `json:"original"` // the file before apply
	Before   string `json:"sha256_before"`
	After    string `json:"sha256_after"` // the file as apply left it
}

// statePath returns the state file's path under root.
func statePath(root string) string { return filepath.Join(root, StateDir, stateFile) }

// readApplied returns the record of the applied weakening, and false if
// nothing is applied.
func readApplied(root string) (applied, bool, error) {
	data, err := os.ReadFile(statePath(root))
	if errors.Is(err, fs.ErrNotExist) {
		return applied{}, false, nil
	}
	if err != nil {
		return applied{}, false, fmt.Errorf("read drill state: %w", err)
	}
	var a applied
	if err := json.Unmarshal(data, &a); err != nil {
		return applied{}, false, fmt.Errorf("read drill state %s: %w", statePath(root), err)
	}
	return a, true, nil
}

// writeApplied records a, replacing the file atomically.
func writeApplied(root string, a applied) error {
	if err := os.MkdirAll(filepath.Join(root, StateDir), 0o755); err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	tmp := statePath(root) + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	if err := os.Rename(tmp, statePath(root)); err != nil {
		return fmt.Errorf("write drill state: %w", err)
	}
	return nil
}

// forgetApplied removes the record, and StateDir if that leaves it empty.
func forgetApplied(root string) error {
	if err := os.Remove(statePath(root)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove drill state: %w", err)
	}
	_ = os.Remove(filepath.Join(root, StateDir)) // only succeeds if empty
	return nil
}

// digest returns the hex SHA-256 of data.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
