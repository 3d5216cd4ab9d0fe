//go:build linux

package worker

import "syscall"

// ForkerThread returns the id of the thread every child is forked from.
func ForkerThread() int {
	var tid int
	_ = onForker(func() error {
		tid = syscall.Gettid()
		return nil
	})
	return tid
}
