package exercise

// This file tells where the learner is with each exercise, from the tree
// itself: a saved solution that was verified here is done, a recorded
// start is started, files that differ from the shipped code without a
// recorded start are edited (reset puts them back).

import (
	"errors"
	"slices"
)

// Status is where a learner is with one exercise.
type Status string

// The statuses.
const (
	Todo    Status = "todo"
	Started Status = "started"
	// Edited: not started, yet a file the exercise touches is not as
	// shipped (the learner's own edit, or a start whose record is gone).
	Edited Status = "edited"
	// Saved: a solution is saved, but was not verified in this checkout
	// (a fresh clone): drill grade verifies it.
	Saved Status = "saved"
	// Done: a saved solution, verified in this checkout as it is now.
	Done Status = "done"
	// Outdated: a solution saved by an older drill (a diff against the
	// shipped code): grade does not count it; saved again, it does.
	Outdated Status = "outdated"
)

// Solved reports whether st is a solution grade would try: saved in the
// current format, verified here or not.
func (st Status) Solved() bool { return st == Done || st == Saved }

// verifiedFile is the state file naming the solutions verified here.
const verifiedFile = "verified.json"

// loadVerified reads which solutions were verified here: the digest of
// each exercise's solution file as it was verified.
func loadVerified(root string) (map[string]string, error) {
	v := map[string]string{}
	if _, err := ReadState(root, verifiedFile, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// markVerified records that name's solution, whose file's digest is
// digest, was verified.
func markVerified(root, name, digest string) error {
	v, err := loadVerified(root)
	if err != nil {
		return err
	}
	v[name] = digest
	return WriteState(root, verifiedFile, v)
}

// Unrecorded returns the exercises of set whose files differ from the
// shipped code while drill has no record of starting them: an exercise
// started before drill's state folder was lost, or the learner's own
// edit. Reset puts them back, keeping the changes aside.
func Unrecorded(set *Set) ([]*Exercise, error) {
	status, err := Statuses(set)
	if err != nil {
		return nil, err
	}
	var out []*Exercise
	for _, e := range set.Exercises {
		if status[e.Name] == Edited {
			out = append(out, e)
		}
	}
	return out, nil
}

// Statuses returns the status of every exercise of set.
func Statuses(set *Set) (map[string]Status, error) {
	verified, err := loadVerified(set.Root)
	if err != nil {
		return nil, err
	}
	shipped, err := LoadShipped(set.Root)
	if err != nil {
		return nil, err
	}
	out := map[string]Status{}
	for _, e := range set.Exercises {
		st, err := statusOf(set, e, verified, shipped)
		if err != nil {
			return nil, err
		}
		out[e.Name] = st
	}
	return out, nil
}

// statusOf is e's status.
func statusOf(set *Set, e *Exercise, verified map[string]string, shipped Shipped) (Status, error) {
	if _, ok, err := LoadWork(set.Root, e.Name); err != nil {
		return "", err
	} else if ok {
		return Started, nil
	}
	if sol, data, err := LoadSolution(set.Root, e); err == nil {
		if !sol.FromStart && slices.ContainsFunc(sol.Parts, func(p Part) bool { return p.Diff }) {
			return Outdated, nil
		}
		if verified[e.Name] == Digest(data) {
			return Done, nil
		}
		return Saved, nil
	} else if !errors.Is(err, ErrNoSolution) {
		return Saved, nil // a damaged file: grade says why
	}
	files, err := set.ShippedFiles(e)
	if err != nil {
		return "", err
	}
	differ, err := shipped.Differs(set.Root, files)
	if err != nil && !errors.Is(err, ErrNotShipped) {
		return "", err
	}
	if len(differ) > 0 {
		return Edited, nil
	}
	return Todo, nil
}
