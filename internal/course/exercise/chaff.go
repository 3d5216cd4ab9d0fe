package exercise

// This file prepares a test exercise's chaffs: each broken copy is written
// once, under StateDir, and reused for as long as the file it breaks is
// unchanged, so a grading pays for generating mutants only when the
// mechanism has moved.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// brokenCopies is the folder under StateDir that keeps the broken copies
// a test exercise's tests are graded against.
const brokenCopies = "broken-copies"

// Prepared is one chaff made ready to build.
type Prepared struct {
	ID       string `json:"id"`
	Property string `json:"property"`
	File     string `json:"file"` // the file it breaks, relative to the module root
	Base     string `json:"base"` // the digest of that file the copy was made from
	Copy     string `json:"copy"` // the broken copy, relative to the module root
}

// prepareChaffs writes the broken copy of every chaff of e under
// StateDir/broken-copies/NAME/ and returns them in e's order.
func prepareChaffs(ctx context.Context, set *Set, e *Exercise) ([]Prepared, error) {
	ids := make([]string, len(e.Chaffs))
	for i, c := range e.Chaffs {
		ids[i] = c.ID
	}
	broken, err := breakAll(ctx, set, ids)
	if err != nil {
		return nil, err
	}
	dir := statePath(set.Root, brokenCopies, e.Name)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out := make([]Prepared, len(e.Chaffs))
	for i, c := range e.Chaffs {
		b := broken[c.ID]
		name := strconv.Itoa(i+1) + "_" + filepath.Base(b.File)
		if err := os.WriteFile(filepath.Join(dir, name), b.Broken, 0o644); err != nil {
			return nil, fmt.Errorf("prepare chaff %s: %w", c.ID, err)
		}
		out[i] = Prepared{ID: c.ID, Property: c.Property, File: b.File, Base: Digest(b.Shipped),
			Copy: StateDir + "/" + brokenCopies + "/" + e.Name + "/" + name}
	}
	return out, nil
}

// fresh reports whether every prepared chaff was made from its target as
// it is now, and its copy is still there.
func fresh(root string, ps []Prepared) bool {
	for _, p := range ps {
		cur, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.File)))
		if err != nil || Digest(cur) != p.Base {
			return false
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p.Copy))); err != nil {
			return false
		}
	}
	return len(ps) > 0
}
