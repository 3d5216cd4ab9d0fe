package mutate

// This file is the engine's API for other tools: the mutants of some
// packages, and one mutant written out for the go command's -overlay, so
// a grader can build anything against it (drill's test exercises use
// mutants as chaffs).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/course/schemata"
)

// Generate returns every mutant of the package folders dirs (relative to
// the module root, e.g. internal/mailbox) that builds on its own, in
// source order.
func Generate(ctx context.Context, root string, dirs []string) ([]*Mutant, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	pkgs, u, err := load(ctx, root, dirs)
	if err != nil {
		return nil, err
	}
	var out []*Mutant
	for _, p := range pkgs {
		for _, m := range generate(root, p) {
			if checkAlone(p, u, m) == nil {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// WriteOverlay writes m's file, mutated, into dir (which must exist) and
// the overlay JSON that makes the go command build with it, and returns
// the overlay file's path: pass it as `go test -overlay PATH`.
func (m *Mutant) WriteOverlay(root, dir string) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("mutate: %w", err)
	}
	abs := filepath.Join(root, filepath.FromSlash(m.File))
	src, err := os.ReadFile(abs)
	if err != nil {
		return "", fmt.Errorf("mutate: %s: %w", m.ID, err)
	}
	if m.end > len(src) || string(src[m.start:m.end]) != m.original {
		return "", fmt.Errorf("mutate: %s: %s changed since the mutant was generated", m.ID, m.File)
	}
	copyPath := filepath.Join(dir, filepath.Base(abs))
	if err := schemata.WriteFile(copyPath, apply(src, m)); err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, schemata.WriteOverlay(overlay, map[string]string{abs: copyPath})
}
