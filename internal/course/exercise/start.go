package exercise

// This file starts an exercise: it checks that the files it touches are
// as shipped, makes the edits that turn the chapter red (a hidden fault, a
// stub, or withheld tests and a learner file), records them first so reset
// can always undo them, hides them from git, and marks the exercise
// started. An interrupted start leaves the tree as it was.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
	// ErrInterrupted: the command was interrupted; it changed nothing.
	ErrInterrupted = errors.New("interrupted")
)

// NotShippedError is Start's refusal when a file the exercise touches is
// not as shipped: the learner's own edit, another exercise's, or a start
// whose record was lost.
type NotShippedError struct {
	Exercise string
	Files    []string // the files that differ, in order
}

func (e *NotShippedError) Error() string {
	return fmt.Sprintf("%s differs from the shipped code", strings.Join(e.Files, ", "))
}

// Start starts e in the working tree under set.Root. A fix or test
// exercise whose fault or chaffs are mutants generates them here, which
// takes seconds. It returns the record of what it changed.
func Start(ctx context.Context, set *Set, e *Exercise) (*Work, error) {
	root := set.Root
	prog, err := LoadProgress(root)
	if err != nil {
		return nil, err
	}
	if err := startable(set, e); err != nil {
		return nil, err
	}
	w := &Work{Exercise: e.Name, Chapter: e.Chapter}
	contents, err := e.edits(ctx, set, w)
	if err != nil {
		return nil, err
	}
	if e.Kind == Test {
		if w.Chaffs, err = prepareChaffs(ctx, set, e); err != nil {
			return nil, err
		}
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	if err := w.write(ctx, root, contents); err != nil {
		return nil, err
	}
	rec := prog.record(e.Name)
	rec.Started = time.Now().UTC()
	prog.Current = e.Name
	if err := prog.Save(root); err != nil {
		return nil, err
	}
	return w, nil
}

// startable refuses to start e while another exercise is started, while
// e's own start is still recorded, or while a file e touches is not as
// shipped.
func startable(set *Set, e *Exercise) error {
	root := set.Root
	if cur, ok, err := Active(root); err != nil {
		return err
	} else if ok && cur != e.Name {
		return fmt.Errorf("%w: %s; finish it (verify) or reset it first", ErrBusy, cur)
	}
	if _, ok, err := LoadWork(root, e.Name); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%w: %s", ErrNotReset, e.Name)
	}
	shipped, err := LoadShipped(root)
	if err != nil {
		return err
	}
	files, err := set.ShippedFiles(e)
	if err != nil {
		return err
	}
	differ, err := shipped.Differs(root, files)
	if err != nil {
		return err
	}
	if len(differ) > 0 {
		return &NotShippedError{Exercise: e.Name, Files: differ}
	}
	if e.Kind == Test {
		learner := e.LearnerFile()
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(learner))); err == nil {
			return fmt.Errorf("%w: %s", ErrLearnerFileExists, learner)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// edits fills w with the edits that start e, and returns what each
// writes; the kind decides what they are.
func (e *Exercise) edits(ctx context.Context, set *Set, w *Work) ([][]byte, error) {
	switch e.Kind {
	case Fix:
		return e.hideFault(ctx, set, w)
	case Build:
		return e.stubFunc(set, w)
	default:
		return e.withholdTests(set, w)
	}
}

// hideFault breaks the mechanism with e's fault.
func (e *Exercise) hideFault(ctx context.Context, set *Set, w *Work) ([][]byte, error) {
	bs, err := breakAll(ctx, set, []string{e.Fault})
	if err != nil {
		return nil, err
	}
	b := bs[e.Fault]
	w.Edits = []Edit{NewEdit(b.File, b.Shipped, true, b.Broken)}
	w.Edits[0].Started = b.Broken
	w.Where = b.where()
	return [][]byte{b.Broken}, nil
}

// stubFunc replaces e.Func's body with e's stub.
func (e *Exercise) stubFunc(set *Set, w *Work) ([][]byte, error) {
	src, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(e.File)))
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", e.Name, err)
	}
	out, err := stubbed(e.File, src, e.Func, e.Stub)
	if err != nil {
		return nil, err
	}
	w.Edits = []Edit{NewEdit(e.File, src, true, out)}
	w.Edits[0].Started = out
	return [][]byte{out}, nil
}

// withholdTests cuts e's tests out of the chapter and creates the
// learner's file.
func (e *Exercise) withholdTests(set *Set, w *Work) ([][]byte, error) {
	cuts, err := withhold(set.Root, e.Chapter, e.Withhold)
	if err != nil {
		return nil, err
	}
	var contents [][]byte
	for _, c := range cuts {
		w.Edits = append(w.Edits, NewEdit(c.File, c.Before, true, c.After))
		contents = append(contents, c.After)
	}
	skel := e.skeleton(cuts[0].Package)
	w.Edits = append(w.Edits, NewEdit(e.LearnerFile(), nil, false, skel))
	return append(contents, skel), nil
}

// write records w, then writes each edit's contents and hides the files
// from git. If a write fails, or ctx is cancelled by the time they are
// written, everything is undone and the record forgotten.
func (w *Work) write(ctx context.Context, root string, contents [][]byte) error {
	// Record first: if a write fails half-way, the record still knows
	// every original.
	if err := w.save(root); err != nil {
		return err
	}
	var err error
	for i, ed := range w.Edits {
		if err = ed.Write(root, contents[i]); err != nil {
			err = fmt.Errorf("start %s: %w", w.Exercise, err)
			break
		}
	}
	if err == nil && ctx.Err() != nil {
		err = ErrInterrupted
	}
	if err == nil {
		w.Snapshot, err = snapshot(root, w.Chapter)
	}
	if err == nil {
		err = w.save(root)
	}
	if err != nil {
		for _, ed := range w.Edits {
			_ = ed.Undo(root)
		}
		return errors.Join(err, w.forget(root))
	}
	hide(context.WithoutCancel(ctx), root, w.files())
	return nil
}

// files returns the files w edited.
func (w *Work) files() []string {
	out := make([]string, len(w.Edits))
	for i, ed := range w.Edits {
		out[i] = ed.File
	}
	return out
}
