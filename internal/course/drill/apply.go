package drill

// This file is `drill apply`: the weakening's edit made in the working
// tree, for a learner who wants to see it in their editor and run the tests
// by hand. It refuses to mix its edit with uncommitted work.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// apply runs `drill apply NAME`.
func (t *Tool) apply(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME",
		"Makes the weakening's edit in the working tree, so you can see it in your editor and run\n"+
			"the tests by hand. 'go run ./tools/drill restore' undoes it exactly. Refuses a file with\n"+
			"uncommitted changes, and applies one weakening at a time.", t.Stderr)
	if err != nil {
		return err
	}
	root, w, err := t.named("apply", args)
	if err != nil {
		return err
	}
	if a, ok, err := readApplied(root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s is already applied to %s; run 'go run ./tools/drill restore' first (one weakening at a time)", a.Name, a.File)
	}
	if err := t.refuseUncommitted(ctx, root, w.File); err != nil {
		return err
	}

	path := filepath.Join(root, filepath.FromSlash(w.File))
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("apply %s: %w", w.Name, err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("apply %s: %w", w.Name, err)
	}
	weak, err := w.Apply(src)
	if err != nil {
		var m *weakening.MatchError
		if errors.As(err, &m) {
			return fmt.Errorf("%s no longer applies: %w", w.Name, m)
		}
		return fmt.Errorf("apply %s: %w", w.Name, err)
	}
	// Record first: if writing the file fails half-way, restore still
	// knows the original bytes.
	rec := applied{Name: w.Name, Chapter: w.Chapter, File: w.File, Original: src, Before: digest(src), After: digest(weak)}
	if err := writeApplied(root, rec); err != nil {
		return err
	}
	if err := os.WriteFile(path, weak, info.Mode().Perm()); err != nil {
		return fmt.Errorf("apply %s: %w (the original is kept in %s; 'go run ./tools/drill restore' puts it back)", w.Name, err, statePath(root))
	}
	fmt.Fprintf(t.Stdout, "applied %s to %s\n\n", w.Name, w.File)
	fmt.Fprint(t.Stdout, weakening.Diff(w.File, src, weak))
	fmt.Fprintf(t.Stdout, "\nNow run:\n  go test ./%s/%s/ -run '%s'\nExpect: %s.\nUndo it with:\n  go run ./tools/drill restore\n",
		weakening.ChaptersDir, w.Chapter, runPattern(w.Tests), expectation(w))
	return nil
}

// ErrUncommitted is returned by apply when the target has uncommitted
// changes: drill will not mix its edit with the learner's work.
var ErrUncommitted = errors.New("drill: file has uncommitted changes")

// refuseUncommitted returns an error wrapping ErrUncommitted if file
// (relative to root) has uncommitted changes in a git checkout, as
// `git status --porcelain -- FILE` reports them. Outside a git checkout,
// or without git, there is nothing to ask and it returns nil; restore
// still puts back the exact bytes it found.
func (t *Tool) refuseUncommitted(ctx context.Context, root, file string) error {
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	inside := exec.CommandContext(ctx, "git", "rev-parse", "--is-inside-work-tree")
	inside.Dir = root
	if out, err := inside.Output(); err != nil || strings.TrimSpace(string(out)) != "true" {
		return nil
	}
	status := exec.CommandContext(ctx, "git", "status", "--porcelain", "--", filepath.FromSlash(file))
	status.Dir = root
	out, err := status.Output()
	if err != nil {
		return fmt.Errorf("apply: git status %s: %w", file, err)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		return fmt.Errorf("%w: %s (git status: %s); commit or undo your changes first, so restore cannot lose them",
			ErrUncommitted, file, s)
	}
	return nil
}
