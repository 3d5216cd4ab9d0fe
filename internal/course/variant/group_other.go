//go:build !unix

package variant

import "os/exec"

// ownGroup leaves cmd as it is outside Unix: there, cancelling it kills
// the command alone (see group_unix.go).
func ownGroup(*exec.Cmd) {}
