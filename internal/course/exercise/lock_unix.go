//go:build unix

package exercise

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockPath holds an flock on name: the kernel drops it when the holder
// dies, so a dead holder's lock is taken over without asking.
func lockPath(name, command string) (release func(), err error) {
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock drill's state: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			data, _ := os.ReadFile(name)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, lockedError(parseHolder(data))
			}
			return nil, fmt.Errorf("lock drill's state: %w", err)
		}
		// The holder before us may have removed the file after we opened
		// it: then we hold a lock on a file nobody else can see. Try again.
		if !sameFile(f, name) {
			f.Close()
			continue
		}
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt(holderText(command), 0)
		}
		return func() {
			os.Remove(name) // while still held, so no one locks a removed file and keeps it
			f.Close()
		}, nil
	}
}

// sameFile reports whether the open f is still the file at name.
func sameFile(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(name)
	return err == nil && os.SameFile(a, b)
}
