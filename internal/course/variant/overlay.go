package variant

// This file writes the go command's -overlay file: which files of the
// module a build reads from somewhere else.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Overlay maps absolute paths in the module to the absolute paths of the
// files the build reads instead. A path the module does not have is added
// to its package.
type Overlay map[string]string

// Write writes o as an -overlay file in dir and returns its path; "" for
// an empty overlay, which needs no flag.
func (o Overlay) Write(dir string) (string, error) {
	if len(o) == 0 {
		return "", nil
	}
	js, err := json.Marshal(struct{ Replace map[string]string }{o})
	if err != nil {
		return "", fmt.Errorf("variant: overlay: %w", err)
	}
	name := filepath.Join(dir, "overlay.json")
	if err := WriteFile(name, js); err != nil {
		return "", err
	}
	return name, nil
}

// Renamer returns a replacer that turns each replacement's path, as the
// compiler names it in its messages, into the module-relative name of the
// file it stands for: a learner knows the files by their own names.
func (o Overlay) Renamer(root string) *strings.Replacer {
	var pairs []string
	for target, copyPath := range o {
		rel, err := filepath.Rel(root, target)
		if err != nil {
			rel = target
		}
		pairs = append(pairs, copyPath, filepath.ToSlash(rel))
	}
	return strings.NewReplacer(pairs...)
}

// WriteFile writes data to name, creating its folder.
func WriteFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("variant: %w", err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("variant: %w", err)
	}
	return nil
}
