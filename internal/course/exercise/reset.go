package exercise

// This file resets an exercise: every file it touches back as shipped,
// byte for byte, and whatever the learner wrote in them kept aside first,
// never lost. Reset reads the shipped code from the shipped list and git
// (see shipped.go), so it works even when the learner's state under
// StateDir is missing or damaged.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Reset puts back every file e touches as shipped and removes a test
// exercise's learner file. A file that differs from the shipped code is
// first copied aside, under StateDir/aside/NAME-TIME-N/ with its path
// kept (a folder of its own for every reset, so copies never overwrite
// each other), unless it is exactly what starting e left there. Reset
// returns the copies, relative to the module root, and forgets e's start.
// A saved solution is never touched.
func Reset(ctx context.Context, set *Set, e *Exercise) (aside []string, err error) {
	root := set.Root
	w, started, err := LoadWork(root, e.Name)
	if err != nil {
		w, started = nil, false // damaged state: reset from the shipped list alone
	}
	shipped, err := LoadShipped(root)
	if err != nil {
		return nil, err
	}
	files, err := set.Files(e)
	if err != nil {
		return nil, err
	}
	if err := busyWith(root, e, files); err != nil {
		return nil, err
	}
	keep := &keeper{root: root, name: e.Name}
	for _, f := range files {
		if err := restore(ctx, root, f, shipped, w, keep); err != nil {
			return keep.aside, err
		}
	}
	unhide(context.WithoutCancel(ctx), root, files)
	if started {
		if err := w.forget(root); err != nil {
			return keep.aside, err
		}
	}
	prog, err := LoadProgress(root)
	if err != nil {
		prog = &Progress{Exercises: map[string]*Record{}}
	}
	if prog.Current == e.Name {
		prog.Current = ""
	}
	if rec := prog.Exercises[e.Name]; rec != nil {
		rec.Started = time.Time{}
	}
	return keep.aside, prog.Save(root)
}

// restore puts file back as shipped; a file the shipped list does not
// name (a test exercise's learner file) is removed. What the learner had
// there is kept aside first, unless it is what w's start wrote.
func restore(ctx context.Context, root, file string, shipped Shipped, w *Work, keep *keeper) error {
	cur, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	exists := err == nil
	_, isShipped := shipped[file]
	if isShipped && exists && BlobID(cur) == shipped[file] {
		return nil
	}
	if exists && !startLeft(w, file, cur) {
		if err := keep.add(file, cur); err != nil {
			return err
		}
	}
	if !isShipped {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(file))); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("reset %s: %w", file, err)
		}
		return nil
	}
	data, err := shippedBytes(ctx, root, file, shipped, w)
	if err != nil {
		return err
	}
	ed := Edit{File: file}
	if err := ed.Write(root, data); err != nil {
		return fmt.Errorf("reset %s: %w", file, err)
	}
	return nil
}

// shippedBytes returns file as shipped: from w's record of the start if
// it holds them, else from git.
func shippedBytes(ctx context.Context, root, file string, shipped Shipped, w *Work) ([]byte, error) {
	if w != nil {
		for _, ed := range w.Edits {
			if ed.File == file && !ed.Created() && BlobID(ed.Original) == shipped[file] {
				return ed.Original, nil
			}
		}
	}
	return shipped.Bytes(ctx, root, root, file)
}

// undoEdit puts the file ed changed back as shipped, or removes it if
// drill created it.
func undoEdit(ctx context.Context, root string, ed Edit, shipped Shipped, w *Work) error {
	if ed.Created() {
		return ed.Undo(root)
	}
	data, err := shippedBytes(ctx, root, ed.File, shipped, w)
	if err != nil {
		return err
	}
	return ed.Write(root, data)
}

// startLeft reports whether cur is exactly what w's start wrote to file:
// a stub or a fault nobody worked on is not worth keeping.
func startLeft(w *Work, file string, cur []byte) bool {
	if w == nil {
		return false
	}
	i := slices.IndexFunc(w.Edits, func(ed Edit) bool { return ed.File == file })
	return i >= 0 && Digest(cur) == w.Edits[i].After
}

// keeper keeps copies aside in one folder per reset, made on first use.
type keeper struct {
	root, name string
	dir        string   // the folder, once made
	aside      []string // the copies, relative to root
}

// add keeps data, the learner's version of file, aside.
func (k *keeper) add(file string, data []byte) error {
	if k.dir == "" {
		parent := statePath(k.root, "aside")
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fmt.Errorf("keep your work aside: %w", err)
		}
		dir, err := os.MkdirTemp(parent, k.name+"-"+time.Now().UTC().Format("20060102T150405")+"-")
		if err != nil {
			return fmt.Errorf("keep your work aside: %w", err)
		}
		k.dir = dir
	}
	dst := filepath.Join(k.dir, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("keep %s aside: %w", file, err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("keep %s aside: %w", file, err)
	}
	rel, err := filepath.Rel(k.root, dst)
	if err != nil {
		return err
	}
	k.aside = append(k.aside, filepath.ToSlash(rel))
	return nil
}

// busyWith refuses to reset e while another started exercise has changed
// one of files, the files e's reset would write.
func busyWith(root string, e *Exercise, files []string) error {
	cur, ok, err := Active(root)
	if err != nil || !ok || cur == e.Name {
		return err
	}
	other, ok, err := LoadWork(root, cur)
	if err != nil || !ok {
		return err
	}
	for _, f := range files {
		if slices.ContainsFunc(other.Edits, func(b Edit) bool { return b.File == f }) {
			return fmt.Errorf("%w: %s, which also changed %s; reset it first", ErrBusy, cur, f)
		}
	}
	return nil
}
