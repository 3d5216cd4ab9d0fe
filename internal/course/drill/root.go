package drill

// This file finds the repository root, so `go run ./tools/drill` works from
// the root or any folder below it.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// Module is the module path of the course repository.
const Module = "github.com/fencelab/fencelab"

// ErrNoRoot is returned by FindRoot when no folder from the starting one
// up holds the course's go.mod.
var ErrNoRoot = errors.New("drill: not inside the fencelab repository (no go.mod declaring module " + Module + ")")

// FindRoot walks up from dir to the first folder whose go.mod declares
// module Module and returns it, with symbolic links resolved (the go
// command's -overlay matches files by absolute path).
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find root: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	for {
		if modulePath(filepath.Join(dir, "go.mod")) == Module {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoRoot
		}
		dir = parent
	}
}

// modulePath returns the module path a go.mod declares, or "" if the file
// is missing, unreadable or declares none.
func modulePath(gomod string) string {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}

// root returns t.Root as an absolute path with symbolic links resolved,
// finding it from the working directory if it is empty.
func (t *Tool) root() (string, error) {
	if t.Root != "" {
		abs, err := filepath.Abs(t.Root)
		if err != nil {
			return "", fmt.Errorf("root %s: %w", t.Root, err)
		}
		if resolved, err := filepath.EvalSymlinks(abs); err == nil {
			abs = resolved
		}
		t.Root = abs
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find root: %w", err)
	}
	root, err := FindRoot(wd)
	if err != nil {
		return "", err
	}
	t.Root = root
	return root, nil
}
