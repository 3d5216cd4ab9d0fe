package cli

// This file holds the signals that stop a run cleanly.

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Interrupts are the signals that stop a run cleanly: Ctrl-C, a polite
// kill, and a terminal that hangs up. The run's context is cancelled,
// which stops its workers; the frame then removes the temporary directory
// and exits 1 with one line saying "interrupted". Only SIGKILL, which no
// program can catch, may leave the directory behind.
var Interrupts = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// WithInterrupts returns a copy of ctx that is cancelled when one of
// Interrupts arrives, and the function that stops listening for them.
func WithInterrupts(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, Interrupts...)
}
