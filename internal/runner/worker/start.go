package worker

// This file starts a worker as a separate OS process: this same program
// started again, with the role in its environment, its arguments in the
// handshake, and the link on its stdin and stdout.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// Starter starts a worker playing r with args. Start is the one the
// runner uses; StartInProcess serves tests about what workers decide
// rather than about the processes.
type Starter func(ctx context.Context, r Role, args ...string) (*Process, error)

var (
	_ Starter = Start
	_ Starter = StartInProcess
)

// Start starts this same program again as a separate OS process playing
// r, and hands it args through the handshake. The worker's stdin and
// stdout are the link; its stderr is ours. The worker is killed if ctx is
// cancelled, and, where the system allows it, as soon as this process
// dies, however it dies (see StartChild).
func Start(ctx context.Context, r Role, args ...string) (*Process, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start %s worker: %w", r.Name, err)
	}
	// Plain pipes, not cmd.StdinPipe/StdoutPipe: exec.Cmd.Wait closes those
	// as soon as the worker exits, which would race with the link still
	// reading the worker's last lines.
	toChild, fromParent, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s worker: %w", r.Name, err)
	}
	fromChild, toParent, err := os.Pipe()
	if err != nil {
		toChild.Close()
		fromParent.Close()
		return nil, fmt.Errorf("start %s worker: %w", r.Name, err)
	}
	// No arguments: a worker takes nothing from its command line.
	cmd := exec.CommandContext(ctx, self)
	// The worker must see itself as "fencelab": under testscript the
	// executable is a test binary that dispatches on its argv[0].
	cmd.Args[0] = "fencelab"
	cmd.Env = append(os.Environ(), roleEnv+"="+r.Name)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = toChild, toParent, os.Stderr
	send, err := attachHandshake(cmd, handshake{Role: r.Name, Parent: os.Getpid(), Args: args})
	if err != nil {
		toChild.Close()
		fromParent.Close()
		fromChild.Close()
		toParent.Close()
		return nil, fmt.Errorf("start %s worker: %w", r.Name, err)
	}
	err = StartChild(cmd)
	// The worker holds its own copies of its ends now; ours would keep the
	// pipes open after it exits.
	toChild.Close()
	toParent.Close()
	if hsErr := send(err == nil); err == nil && hsErr != nil {
		err = hsErr
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	if err != nil {
		fromParent.Close()
		fromChild.Close()
		return nil, fmt.Errorf("start %s worker: %w", r.Name, err)
	}
	p := newProcess(NewLink(fromChild, fromParent), cmd.Process.Pid, func() { _ = killChild(cmd.Process) })
	go func() {
		err := cmd.Wait()
		if exitErr := (*exec.ExitError)(nil); errors.As(err, &exitErr) {
			err = nil // the exit status says it
		}
		st := cmd.ProcessState
		if st == nil {
			p.finish(Exit{Code: -1}, "could not be waited for", err)
			return
		}
		exit := Exit{Code: st.ExitCode(), Normal: st.Exited()}
		ended := fmt.Sprintf("exited with status %d", exit.Code)
		if !exit.Normal {
			ended = fmt.Sprintf("was killed (%v)", st)
		}
		p.finish(exit, ended, err)
	}()
	return p, nil
}
