package exercise

// This file keeps drill commands on one tree from running at once: two
// starts of different exercises, or a verify racing a reset, would each
// read the tree the other is changing. Every command that changes the
// tree or drill's state holds StateDir/lock while it runs. The lock file
// names its holder (pid and command), so a refusal says who holds it; a
// lock whose holder died is taken over (on Unix the kernel releases it
// with the process, elsewhere the recorded pid is checked).

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// lockFile is the lock's file under StateDir.
const lockFile = "lock"

// ErrLocked is returned (wrapped) when another drill holds the tree.
var ErrLocked = errors.New("another drill command is working on this tree")

// holder is what a lock file says of its holder.
type holder struct {
	pid     int
	command string
	since   string
}

// format returns the lock file's text for the calling process.
func holderText(command string) []byte {
	return fmt.Appendf(nil, "%d\n%s\n%s\n", os.Getpid(), command, time.Now().UTC().Format(time.RFC3339))
}

// parseHolder reads a lock file's text; a torn or empty one reads as pid 0.
func parseHolder(data []byte) holder {
	lines := strings.Split(string(data), "\n")
	var h holder
	h.pid, _ = strconv.Atoi(strings.TrimSpace(lines[0]))
	if len(lines) > 1 {
		h.command = strings.TrimSpace(lines[1])
	}
	if len(lines) > 2 {
		h.since = strings.TrimSpace(lines[2])
	}
	return h
}

// lockedError is the refusal naming the holder.
func lockedError(h holder) error {
	who := "pid " + strconv.Itoa(h.pid)
	if h.command != "" {
		who += ", drill " + h.command
	}
	if h.since != "" {
		who += ", since " + h.since
	}
	return fmt.Errorf("%w (%s); wait for it to finish, or stop it, and run this again", ErrLocked, who)
}

// Lock takes root's drill lock for command (its name, for a refusal) and
// returns the function that releases it. It refuses at once, naming the
// holder, while a live drill holds it.
func Lock(root, command string) (unlock func(), err error) {
	dir := statePath(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock drill's state: %w", err)
	}
	release, err := lockPath(statePath(root, lockFile), command)
	if err != nil {
		return nil, err
	}
	return func() {
		release()
		_ = os.Remove(dir) // only if nothing else is in it
	}, nil
}
