// Package worker is the runner's link to its worker processes: the runner
// starts itself again to play a role (a mailbox worker, worker A of the
// fencing story, process B of the actor story), hands it its work through
// a handshake only a parent can give, and talks to it one JSON message a
// line over its stdin and stdout.
//
// The parent's side is Start (or StartInProcess, for tests about what the
// workers decide rather than about the processes), Ask and Crew; the
// worker's side is Main and Serve. Every experiment uses this one copy.
package worker

import (
	"context"
	"fmt"
	"io"
	"os"
)

// roleEnv names the environment variable that tells a runner process it
// was started as a worker, and which role it plays. It says nothing more:
// the worker's arguments and the proof that its parent started it come
// through the handshake (see handshake.go).
const roleEnv = "FENCELAB_ROLE"

// Role is a kind of worker a command starts.
type Role struct {
	Name string
	// Run is the worker's body. It gets the arguments its parent handed
	// it, talks to the parent through link, and returns nil for exit
	// status 0.
	Run func(ctx context.Context, args []string, link *Link) error
}

// Entered reports whether this process was started to play a worker role
// (whether or not its parent really started it: Main checks that).
func Entered() bool { return os.Getenv(roleEnv) != "" }

// Main runs this process as the worker its environment names, playing
// one of roles, and returns its exit status: 0 done, 1 the role failed,
// 2 the role was entered without its parent (by hand) or is unknown, in
// which case nothing was opened or created. The worker's stdin and stdout
// belong to the link; diagnostics go to stderr.
func Main(ctx context.Context, roles []Role, stderr io.Writer) int {
	name := os.Getenv(roleEnv)
	args, err := receiveHandshake(name)
	if err != nil {
		fmt.Fprintf(stderr, "fencelab: %v\n", err)
		return 2
	}
	for _, r := range roles {
		if r.Name != name {
			continue
		}
		if err := r.Run(ctx, args, NewLink(os.Stdin, os.Stdout)); err != nil {
			// After an interrupt the parent speaks for everyone; a
			// worker's own echo of it would only add noise.
			if ctx.Err() == nil {
				fmt.Fprintf(stderr, "fencelab worker %s: %v\n", name, err)
			}
			return 1
		}
		return 0
	}
	// Only a parent that passed the handshake gets here, so the name is
	// the runner's own, not a stranger's: quoting it whole is safe.
	fmt.Fprintf(stderr, "fencelab: unknown worker role %q\n", name)
	return 2
}
