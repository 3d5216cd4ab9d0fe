package cli

// This file starts worker processes: the runner starts itself again with a
// role in its environment, and talks to the worker over its stdin and
// stdout, one JSON message a line.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// roleEnv names the environment variable that turns a runner process into
// a worker playing the named role.
const roleEnv = "FENCELAB_ROLE"

// replyTimeout bounds every wait for a worker. Workers answer in
// milliseconds; the bound exists so a stuck worker is killed and reported,
// never waited on forever. It orders nothing: handshakes do that.
const replyTimeout = 30 * time.Second

// Role is a kind of worker process a command starts.
type Role struct {
	Name string
	// Run is the worker's body. It talks to the coordinator through link
	// and returns nil for exit status 0.
	Run func(ctx context.Context, args []string, link *Link) error
}

// RoleFromEnv reports the role this process was started to play, or "" if
// it is the runner itself.
func RoleFromEnv() string { return os.Getenv(roleEnv) }

// RunRole runs this process as the worker named by the environment and
// returns its exit status. Its stdout belongs to the link; diagnostics go to
// stderr.
func RunRole(ctx context.Context, cmds []Command, args []string) int {
	name := RoleFromEnv()
	for _, c := range cmds {
		for _, r := range c.Roles {
			if r.Name != name {
				continue
			}
			link := NewLink(os.Stdin, os.Stdout)
			if err := r.Run(ctx, args, link); err != nil {
				// After an interrupt the coordinator speaks for everyone;
				// a worker's own echo of it would only add noise.
				if ctx.Err() == nil {
					fmt.Fprintf(os.Stderr, "fencelab worker %s: %v\n", name, err)
				}
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "fencelab: unknown worker role %q\n", name)
	return 2
}

// Child is a worker process started by StartChild.
type Child struct {
	*Link
	Pid  int
	cmd  *exec.Cmd
	done chan struct{}
	err  error // Wait's result, valid once done is closed
}

// Exit is how a worker process ended.
type Exit struct {
	Code   int  `json:"code"`
	Normal bool `json:"normal"` // exited by itself, not killed by a signal
}

// StartChild starts this same program again as a worker playing role, with
// args. The worker's stdin and stdout are the link; its stderr is ours.
// The worker is killed if ctx is cancelled. Callers must call Stop when
// done with it, on every path.
func StartChild(ctx context.Context, role string, args ...string) (*Child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start %s worker: %w", role, err)
	}
	// Plain pipes, not cmd.StdinPipe/StdoutPipe: exec.Cmd.Wait closes those
	// as soon as the worker exits, which would race with the link still
	// reading the worker's last lines.
	toChild, fromParent, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s worker: %w", role, err)
	}
	fromChild, toParent, err := os.Pipe()
	if err != nil {
		toChild.Close()
		fromParent.Close()
		return nil, fmt.Errorf("start %s worker: %w", role, err)
	}
	cmd := exec.CommandContext(ctx, self, args...)
	// The worker must see itself as "fencelab": under testscript the
	// executable is a test binary that dispatches on its argv[0].
	cmd.Args[0] = "fencelab"
	cmd.Env = append(os.Environ(), roleEnv+"="+role)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = toChild, toParent, os.Stderr
	err = cmd.Start()
	// The worker holds its own copies of its ends now; ours would keep the
	// pipes open after it exits.
	toChild.Close()
	toParent.Close()
	if err != nil {
		fromParent.Close()
		fromChild.Close()
		return nil, fmt.Errorf("start %s worker: %w", role, err)
	}
	c := &Child{Link: NewLink(fromChild, fromParent), Pid: cmd.Process.Pid, cmd: cmd, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// Send is Link.Send, with a worker that died reported as such rather than
// as a broken pipe.
func (c *Child) Send(v any) error {
	return c.explain(c.Link.Send(v), "before it was told")
}

// Recv is Link.Recv, with a worker that died before answering reported as
// such rather than as a bare end of file.
func (c *Child) Recv(v any) error {
	return c.explain(c.Link.Recv(v), "before answering")
}

// explain turns a link error into one that says whether the worker died.
func (c *Child) explain(err error, when string) error {
	if err == nil {
		return nil
	}
	select {
	case <-c.done:
		return fmt.Errorf("worker %d %s %s: %w", c.Pid, c.ended(), when, err)
	case <-time.After(time.Second):
		return fmt.Errorf("worker %d: %w", c.Pid, err)
	}
}

// Wait closes the worker's stdin and waits, for a bounded time, for it to
// exit by itself. A worker that does not exit in time is killed and Wait
// returns an error saying so.
func (c *Child) Wait() (Exit, error) {
	c.CloseSend()
	select {
	case <-c.done:
	case <-time.After(replyTimeout):
		c.Stop()
		return c.exit(), fmt.Errorf("worker %d did not exit within %v; killed", c.Pid, replyTimeout)
	}
	c.Close()
	var exitErr *exec.ExitError
	if c.err != nil && !errors.As(c.err, &exitErr) {
		return c.exit(), fmt.Errorf("worker %d: %w", c.Pid, c.err)
	}
	return c.exit(), nil
}

// Stop kills the worker if it is still running, reaps it and closes the
// link. It is safe to call more than once and after Wait.
func (c *Child) Stop() {
	c.CloseSend()
	select {
	case <-c.done:
	default:
		_ = c.cmd.Process.Kill()
		<-c.done
	}
	c.Close()
}

func (c *Child) exit() Exit {
	st := c.cmd.ProcessState
	if st == nil {
		return Exit{Code: -1}
	}
	return Exit{Code: st.ExitCode(), Normal: st.Exited()}
}

// ended says how the worker ended, once it has: "exited with status 1" or
// "was killed (signal: killed)".
func (c *Child) ended() string {
	if e := c.exit(); e.Normal {
		return fmt.Sprintf("exited with status %d", e.Code)
	}
	return fmt.Sprintf("was killed (%v)", c.cmd.ProcessState)
}
