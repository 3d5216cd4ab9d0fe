// Command drill runs the course's break-and-fix exercises and grades them.
//
// Each chapter's weakenings/ folder holds deliberate mistakes in internal/
// and the tests that must catch them; its exercises/ folder holds the
// exercises a learner works through. From the repository root:
//
//	go run ./tools/drill list               chapters, weakenings, guarding tests
//	go run ./tools/drill show NAME          the edit, the command, the failure to expect
//	go run ./tools/drill try NAME           run it (through go test -overlay; files untouched)
//	go run ./tools/drill apply NAME         make the edit in the working tree
//	go run ./tools/drill restore            undo it exactly
//	go run ./tools/drill check [--json]     the graded check over every chapter
//	go run ./tools/drill exercises          the exercises: fix, test, build
//	go run ./tools/drill start NAME         begin one; its chapter goes red
//	go run ./tools/drill hint | verify      a hint, a grading
//	go run ./tools/drill reset NAME         the shipped code back, your work aside
//
// Run it with no arguments for the usage text.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/fencelab/fencelab/internal/course/drill"
)

func main() {
	// Ctrl-C, or a CI runner stopping the job, ends the work through the
	// context, so scratch copies and child processes go with it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := drill.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
