package drill

// This file is `drill apply`: the weakening's edit made in the working
// tree, for a learner who wants to see it in their editor and run the tests
// by hand. It refuses to mix its edit with uncommitted work, and so needs
// git to tell what is uncommitted.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// apply runs `drill apply NAME`.
func (t *Tool) apply(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	args, err := parseArgs(fs, args, "NAME",
		"Makes the weakening's edit in the working tree, so you can see it in your editor and run\n"+
			"the tests by hand. 'go run ./tools/drill restore' undoes it exactly. Refuses a file with\n"+
			"uncommitted changes (git tells which), and applies one weakening at a time.", t.Stderr)
	if err != nil {
		return err
	}
	root, w, err := t.named("apply", args)
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(root, "apply")
	if err != nil {
		return err
	}
	defer unlock()
	if a, ok, err := readApplied(root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s is already applied to %s; run 'go run ./tools/drill restore' first (one weakening at a time)", a.Name, a.File)
	}
	if name, ok, err := startedExercise(root); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("exercise %s is started; finish it (go run ./tools/drill verify) or reset it (go run ./tools/drill reset %s) before applying a weakening", name, name)
	}
	if err := t.refuseUncommitted(ctx, root, w); err != nil {
		return err
	}

	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(w.File)))
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
	rec := applied{Name: w.Name, Chapter: w.Chapter, Edit: exercise.NewEdit(w.File, src, true, weak)}
	if err := writeApplied(root, rec); err != nil {
		return err
	}
	if err := rec.Write(root, weak); err != nil {
		return fmt.Errorf("apply %s: %w (the original is kept in %s; 'go run ./tools/drill restore' puts it back)", w.Name, err, statePath(root))
	}
	fmt.Fprintf(t.Stdout, "applied %s to %s\n\n", w.Name, w.File)
	fmt.Fprint(t.Stdout, weakening.Diff(w.File, src, weak))
	fmt.Fprintf(t.Stdout, "\nNow run:\n  go test ./%s/%s/ -run '%s'\nExpect: %s.\nUndo it with:\n  go run ./tools/drill restore\n",
		weakening.ChaptersDir, w.Chapter, variant.RunPattern(w.Tests), expectation(w))
	return nil
}

// ErrUncommitted is returned by apply when the target has uncommitted
// changes: drill will not mix its edit with the learner's work.
var ErrUncommitted = errors.New("drill: file has uncommitted changes")

// ErrNoGit is what a *GitError wraps: git could not say whether the
// target has uncommitted changes (git is not on PATH, the tree is not a
// git checkout, or git failed), and apply refuses rather than edit a file
// it could not check.
var ErrNoGit = errors.New("drill: the uncommitted-changes guard needs git")

// GitError is apply's refusal when git cannot answer. errors.Is(err,
// ErrNoGit) is true for it.
type GitError struct {
	Weakening string // the weakening apply was asked to make
	Problem   string // why git could not answer, in a few words
}

func (e *GitError) Error() string {
	return fmt.Sprintf("the uncommitted-changes guard needs git, and %s; '%s %s' needs no git and never writes your files",
		e.Problem, weakening.TryCommand, e.Weakening)
}

// Unwrap returns ErrNoGit.
func (e *GitError) Unwrap() error { return ErrNoGit }

// refuseUncommitted returns an error wrapping ErrUncommitted if file
// (relative to root) has uncommitted changes, as `git status --porcelain
// -- FILE` reports them, and a *GitError if git cannot answer.
func (t *Tool) refuseUncommitted(ctx context.Context, root string, w *weakening.Weakening) error {
	s, err := gitStatus(ctx, root, []string{w.File})
	if err != nil {
		return &GitError{Weakening: w.Name, Problem: gitProblem(err)}
	}
	if s != "" {
		return fmt.Errorf("%w: %s (git status: %s); commit or undo your changes first, so restore cannot lose them",
			ErrUncommitted, w.File, s)
	}
	return nil
}

// gitStatus returns what `git status --porcelain -- FILES` prints for
// files (relative to root), trimmed: "" when none has uncommitted
// changes. The git status runs with GIT_OPTIONAL_LOCKS=0, so checking
// never writes the learner's index.
func gitStatus(ctx context.Context, root string, files []string) (string, error) {
	args := []string{"status", "--porcelain", "--"}
	for _, f := range files {
		args = append(args, filepath.FromSlash(f))
	}
	status := exec.CommandContext(ctx, "git", args...)
	status.Dir = root
	status.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := status.Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// gitProblem says in a few words why a git command failed: not installed,
// or the first line git printed on stderr.
func gitProblem(err error) string {
	if errors.Is(err, exec.ErrNotFound) {
		return "git is not on PATH"
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if line, _, _ := strings.Cut(strings.TrimSpace(string(exit.Stderr)), "\n"); line != "" {
			return "git status failed: " + line
		}
		return fmt.Sprintf("git status failed with exit status %d", exit.ExitCode())
	}
	return "git status failed: " + err.Error()
}
