package worker_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// TestMain lets this test binary play the workers the tests start: a
// worker is this same binary started again with a role in its environment.
func TestMain(m *testing.M) {
	if os.Getenv(noExecutable) != "" {
		startWithoutExecutable()
	}
	if spare := os.Getenv(fewDescriptors); spare != "" {
		startWithFewDescriptors(spare)
	}
	if worker.Entered() {
		os.Exit(worker.Main(context.Background(), roles, os.Stderr))
	}
	os.Exit(m.Run())
}

// The roles the tests start.
var (
	exit3 = worker.Role{Name: "exit-3", Run: func(context.Context, []string, *worker.Link) error {
		os.Exit(3)
		return nil
	}}
	// echo sends back every message it receives, with its arguments.
	echo = worker.Role{Name: "echo", Run: func(_ context.Context, args []string, l *worker.Link) error {
		return worker.Serve(l, func(m message) (message, error) {
			m.Args, m.Pid = args, os.Getpid()
			return m, nil
		})
	}}
	// touch creates the file its first argument names: what a worker
	// role entered by hand must never get to do.
	touch = worker.Role{Name: "touch", Run: func(_ context.Context, args []string, _ *worker.Link) error {
		return os.WriteFile(args[0], nil, 0o600)
	}}
	// quiet sends nothing and is asked nothing: it works until its
	// parent closes the link, as a worker that works on its own does.
	quiet = worker.Role{Name: "quiet", Run: func(ctx context.Context, _ []string, l *worker.Link) error {
		select {
		case <-l.PeerClosed():
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}}
	// stubborn ignores its link, even its end: only a kill (or an hour)
	// stops it.
	stubborn = worker.Role{Name: "stubborn", Run: func(ctx context.Context, _ []string, _ *worker.Link) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Hour):
			return nil
		}
	}}
	// refuse fails the first request it is sent, as a worker whose work
	// broke does.
	refuse = worker.Role{Name: "refuse", Run: func(_ context.Context, _ []string, l *worker.Link) error {
		return worker.Serve(l, func(message) (message, error) {
			return message{}, errors.New("the ledger is gone")
		})
	}}
	roles = []worker.Role{exit3, echo, touch, quiet, stubborn, refuse}
)

// message is what the tests and the echo worker exchange.
type message struct {
	N    int      `json:"n"`
	Args []string `json:"args,omitempty"`
	Pid  int      `json:"pid,omitempty"`
}
