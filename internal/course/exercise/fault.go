package exercise

// This file breaks the mechanism on purpose: a fix exercise's hidden fault
// and a test exercise's chaffs are each a weakening from the catalog or a
// mutant from package mutate, turned here into the broken bytes of one
// mechanism file.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/mutate"
)

// ErrUnknownMutant is returned (wrapped) for a mutant ID that the
// mechanism no longer produces: the code it mutated has changed since the
// exercise was written.
var ErrUnknownMutant = errors.New("exercise: no such mutant")

// breakage is one way of breaking the mechanism, as bytes.
type breakage struct {
	ID      string
	File    string // the target, relative to the module root
	Shipped []byte // the target as it is now
	Broken  []byte // the target broken
}

// region returns the byte range of Broken that differs from Shipped.
func (b breakage) region() (start, end int) {
	for start < len(b.Shipped) && start < len(b.Broken) && b.Shipped[start] == b.Broken[start] {
		start++
	}
	s, e := len(b.Shipped), len(b.Broken)
	for s > start && e > start && b.Shipped[s-1] == b.Broken[e-1] {
		s--
		e--
	}
	return start, e
}

// where describes the region as the hints show it: the file, the
// function around the change, and its lines.
func (b breakage) where() *Where {
	start, end := b.region()
	first, last := lineSpan(b.Broken, start, max(end, start+1))
	return &Where{File: b.File, Func: funcAt(b.Broken, start), First: first, Last: last}
}

// breakAll returns a breakage for each id (weakening names and mutant
// IDs), reading the targets from the working tree under set.Root.
// Mutants are generated once per package.
func breakAll(ctx context.Context, set *Set, ids []string) (map[string]breakage, error) {
	out := map[string]breakage{}
	byPkg := map[string][]string{} // mechanism package folder -> mutant IDs
	for _, id := range ids {
		if IsMutant(id) {
			dir, err := mutantPackage(set.Root, id)
			if err != nil {
				return nil, err
			}
			byPkg[dir] = append(byPkg[dir], id)
			continue
		}
		w, ok := set.Catalog.Lookup(id)
		if !ok {
			return nil, fmt.Errorf("%s: %w", id, ErrUnknownWeakening)
		}
		src, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(w.File)))
		if err != nil {
			return nil, fmt.Errorf("break with %s: %w", id, err)
		}
		broken, err := w.Apply(src)
		if err != nil {
			return nil, fmt.Errorf("break with %s: %w", id, err)
		}
		out[id] = breakage{ID: id, File: w.File, Shipped: src, Broken: broken}
	}
	for dir, want := range byPkg {
		ms, err := mutate.Generate(ctx, set.Root, []string{dir})
		if err != nil {
			return nil, fmt.Errorf("generate the mutants of %s: %w", dir, err)
		}
		for _, id := range want {
			b, err := mutantBreakage(set.Root, ms, id)
			if err != nil {
				return nil, err
			}
			out[id] = b
		}
	}
	return out, nil
}

// mutantPackage returns the mechanism package folder a mutant ID names:
// its first element is the folder's last one.
func mutantPackage(root, id string) (string, error) {
	pkgs, err := mutate.MechanismPackages(root)
	if err != nil {
		return "", err
	}
	base, _, _ := strings.Cut(id, ":")
	for _, p := range pkgs {
		if path.Base(p) == base {
			return p, nil
		}
	}
	return "", fmt.Errorf("mutant %s: %w: no mechanism package %s", id, ErrUnknownMutant, base)
}

// mutantBreakage finds mutant id among ms and returns its file broken.
func mutantBreakage(root string, ms []*mutate.Mutant, id string) (breakage, error) {
	var m *mutate.Mutant
	for _, x := range ms {
		if x.ID == id {
			m = x
		}
	}
	if m == nil {
		return breakage{}, fmt.Errorf("mutant %s: %w (the code it mutated has changed; 'go run ./tools/drill mutate' lists today's IDs)", id, ErrUnknownMutant)
	}
	shipped, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
	if err != nil {
		return breakage{}, err
	}
	broken, err := m.Apply(root)
	if err != nil {
		return breakage{}, err
	}
	return breakage{ID: id, File: m.File, Shipped: shipped, Broken: broken}, nil
}
