package exercise

// This file starts an exercise: it makes the edits that turn the chapter
// red (a hidden fault, a stub, or withheld tests and a learner file),
// records them first so reset can always undo them, and marks the
// exercise started.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Why Start refuses.
var (
	// ErrBusy: another exercise is started and not done; one at a time,
	// so the chapter's failures always belong to one exercise.
	ErrBusy = errors.New("exercise: another exercise is started")
	// ErrNotReset: the exercise was started before and its changes are
	// still recorded; reset it first, which keeps that work aside.
	ErrNotReset = errors.New("exercise: started before and not reset")
	// ErrLearnerFileExists: the learner test file is already there, and
	// starting would overwrite the learner's work.
	ErrLearnerFileExists = errors.New("exercise: learner test file exists")
)

// Start starts e in the working tree under set.Root. guard is called with
// the files Start is about to write, before anything is written; if it
// returns an error, Start stops with it and changes nothing. A fix or
// test exercise whose fault or chaffs are mutants generates them here,
// which takes seconds. It returns the record of what it changed.
func Start(ctx context.Context, set *Set, e *Exercise, guard func(files []string) error) (*Work, error) {
	root := set.Root
	prog, err := LoadProgress(root)
	if err != nil {
		return nil, err
	}
	if cur, ok, err := Active(root); err != nil {
		return nil, err
	} else if ok && cur != e.Name {
		return nil, fmt.Errorf("%w: %s; finish it (verify) or reset it first", ErrBusy, cur)
	}
	if _, ok, err := LoadWork(root, e.Name); err != nil {
		return nil, err
	} else if ok {
		return nil, fmt.Errorf("%w: %s", ErrNotReset, e.Name)
	}

	w := &Work{Exercise: e.Name}
	var contents [][]byte // what each edit writes
	switch e.Kind {
	case Fix:
		bs, err := breakAll(ctx, set, []string{e.Fault})
		if err != nil {
			return nil, err
		}
		b := bs[e.Fault]
		w.Edits = []Edit{NewEdit(b.File, b.Shipped, true, b.Broken)}
		contents = [][]byte{b.Broken}
		w.Where = b.where()
	case Build:
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.File)))
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", e.Name, err)
		}
		out, err := stubbed(e.File, src, e.Func, e.Stub)
		if err != nil {
			return nil, err
		}
		w.Edits = []Edit{NewEdit(e.File, src, true, out)}
		contents = [][]byte{out}
	case Test:
		cuts, err := withhold(root, e.Chapter, e.Withhold)
		if err != nil {
			return nil, err
		}
		for _, c := range cuts {
			w.Edits = append(w.Edits, NewEdit(c.File, c.Before, true, c.After))
			contents = append(contents, c.After)
		}
		learner := e.LearnerFile()
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(learner))); err == nil {
			return nil, fmt.Errorf("%w: %s holds your work; move it away first", ErrLearnerFileExists, learner)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		skel := e.skeleton(cuts[0].Package)
		w.Edits = append(w.Edits, NewEdit(learner, nil, false, skel))
		contents = append(contents, skel)
	}
	files := make([]string, len(w.Edits))
	for i, ed := range w.Edits {
		files[i] = ed.File
	}
	if guard != nil {
		if err := guard(files); err != nil {
			return nil, err
		}
	}
	if e.Kind == Test {
		if w.Chaffs, err = prepareChaffs(ctx, set, e); err != nil {
			return nil, err
		}
	}

	// Record first: if a write fails half-way, reset still knows every
	// original.
	if err := w.save(root); err != nil {
		return nil, err
	}
	for i, ed := range w.Edits {
		if err := ed.Write(root, contents[i]); err != nil {
			return nil, fmt.Errorf("start %s: %w ('go run ./tools/drill reset %s' puts back what was written)", e.Name, err, e.Name)
		}
	}
	if w.Snapshot, err = snapshot(root, e.Chapter); err != nil {
		return nil, err
	}
	if err := w.save(root); err != nil {
		return nil, err
	}
	rec := prog.record(e.Name)
	rec.Status, rec.Started, rec.Done = Started, time.Now().UTC(), time.Time{}
	prog.Current = e.Name
	if err := prog.Save(root); err != nil {
		return nil, err
	}
	return w, nil
}
