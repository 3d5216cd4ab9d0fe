package exercise

// This file resets an exercise: the shipped files back byte for byte, and
// whatever the learner wrote in them kept aside first, never lost.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Reset puts back every file starting e changed, byte for byte. A started
// exercise is todo again; a done one stays done, with its hints and score:
// the record is of what the learner did. A file the learner
// has changed since is first copied aside, under
// StateDir/aside/NAME-TIME/ with its path kept; Reset returns those
// copies, relative to the module root. A learner file of a test exercise
// always counts as changed once written. Resetting an exercise that holds
// no changes only marks it todo.
func Reset(set *Set, e *Exercise) (aside []string, err error) {
	root := set.Root
	prog, err := LoadProgress(root)
	if err != nil {
		return nil, err
	}
	w, ok, err := LoadWork(root, e.Name)
	if err != nil {
		return nil, err
	}
	if ok {
		if err := busyWith(root, e, w); err != nil {
			return nil, err
		}
		stamp := time.Now().UTC().Format("20060102T150405")
		for _, ed := range w.Edits {
			state, cur, err := ed.State(root)
			if err != nil {
				return aside, err
			}
			if state == Undone {
				continue
			}
			if state == Changed && cur != nil {
				rel := StateDir + "/aside/" + e.Name + "-" + stamp + "/" + ed.File
				dst := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return aside, err
				}
				if err := os.WriteFile(dst, cur, 0o644); err != nil {
					return aside, fmt.Errorf("keep %s aside: %w", ed.File, err)
				}
				aside = append(aside, rel)
			}
			if err := ed.Undo(root); err != nil {
				return aside, fmt.Errorf("reset %s: %w", ed.File, err)
			}
		}
		if err := w.forget(root); err != nil {
			return aside, err
		}
	}
	if rec := prog.record(e.Name); rec.Status != Done {
		rec.Status, rec.Started = Todo, time.Time{}
	}
	if prog.Current == e.Name {
		prog.Current = ""
	}
	return aside, prog.Save(root)
}

// busyWith refuses to reset e while another started exercise has changed
// one of the files e's reset would write.
func busyWith(root string, e *Exercise, w *Work) error {
	cur, ok, err := Active(root)
	if err != nil || !ok || cur == e.Name {
		return err
	}
	other, ok, err := LoadWork(root, cur)
	if err != nil || !ok {
		return err
	}
	for _, a := range w.Edits {
		if slices.ContainsFunc(other.Edits, func(b Edit) bool { return a.File == b.File }) {
			return fmt.Errorf("%w: %s, which also changed %s; reset it first", ErrBusy, cur, a.File)
		}
	}
	return nil
}
