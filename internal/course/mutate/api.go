package mutate

// This file is the engine's API for other tools: the mutants of some
// packages, and one mutant's file as it reads mutated, so a grader can
// build anything against it (test exercises grade a learner's tests on
// mutants).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Generate returns every mutant of the package folders dirs (relative to
// the module root, e.g. internal/mailbox) that builds on its own, in
// source order.
func Generate(ctx context.Context, root string, dirs []string) ([]*Mutant, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	tree, err := TreeOf(root)
	if err != nil {
		return nil, err
	}
	pkgs, u, err := load(ctx, root, dirs)
	if err != nil {
		return nil, err
	}
	var out []*Mutant
	for _, p := range pkgs {
		ms, err := generate(root, tree, p)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if checkAlone(p, u, m) == nil {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// Apply returns m's file as it is under root, mutated. It fails if the
// file changed since m was generated.
func (m *Mutant) Apply(root string) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", m.ID, err)
	}
	if m.end > len(src) || string(src[m.start:m.end]) != m.original {
		return nil, fmt.Errorf("mutate: %s: %s changed since the mutant was generated", m.ID, m.File)
	}
	return []byte(apply(src, m)), nil
}
