package exercise

// This file keeps a started exercise's changes out of git's sight. A fix
// exercise's fault would otherwise be one `git diff` away, and a test
// exercise's withheld tests too; and a learner committing their work
// between exercises must not commit a stub or a hidden fault. Marking the
// files skip-worktree in git's index makes git diff, git status and git
// commit -a pass over them until drill marks them again: when the
// exercise is done or reset. By hand: git update-index --no-skip-worktree FILE.
// Outside a git checkout there is nothing to hide from, and nothing is done.

import (
	"context"
	"os/exec"
	"strings"
)

// hide marks the tracked files among files skip-worktree.
func hide(ctx context.Context, root string, files []string) {
	if tracked := trackedFiles(ctx, root, files); len(tracked) > 0 {
		_ = git(ctx, root, append([]string{"update-index", "--skip-worktree", "--"}, tracked...)...)
	}
}

// unhide clears the skip-worktree mark of the tracked files among files.
func unhide(ctx context.Context, root string, files []string) {
	if tracked := trackedFiles(ctx, root, files); len(tracked) > 0 {
		_ = git(ctx, root, append([]string{"update-index", "--no-skip-worktree", "--"}, tracked...)...)
	}
}

// trackedFiles returns those of files that git tracks in root's index; none
// if root is not a git checkout or git is missing.
func trackedFiles(ctx context.Context, root string, files []string) []string {
	cmd := exec.CommandContext(ctx, "git", append([]string{"ls-files", "--"}, files...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// git runs git with args in root.
func git(ctx context.Context, root string, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = root
	return cmd.Run()
}
