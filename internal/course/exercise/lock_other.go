//go:build !unix

package exercise

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// lockPath creates name exclusively, holding the pid of its holder. A
// lock whose recorded holder is no longer running is taken over.
func lockPath(name, command string) (release func(), err error) {
	for range 3 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, _ = f.Write(holderText(command))
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock drill's state: %w", err)
		}
		data, _ := os.ReadFile(name)
		h := parseHolder(data)
		if h.pid > 0 && running(h.pid) {
			return nil, lockedError(h)
		}
		os.Remove(name) // its holder died: take it over
	}
	return nil, fmt.Errorf("%w (it kept changing hands); run this again", ErrLocked)
}

// running reports whether a process with pid exists.
func running(pid int) bool {
	_, err := os.FindProcess(pid) // on Windows, fails for a process that is gone
	return err == nil
}
