//go:build !unix

package worker

// This file is group_unix.go where there are no process groups: a child
// is killed alone.

import (
	"os"
	"os/exec"
)

// ownGroup leaves cmd as it is.
func ownGroup(*exec.Cmd) {}

// killChild kills p at once.
func killChild(p *os.Process) error { return p.Kill() }
