// Command drill is the course's exercises and break-and-fix tool, and its
// graded checks.
//
// Each chapter's exercises/ folder holds the exercises a learner works
// through; its weakenings/ folder holds deliberate mistakes in internal/
// and the tests that must catch them. From the repository root:
//
//	go run ./tools/drill exercises          the exercises: fix, test, build
//	go run ./tools/drill start NAME         begin one; its chapter goes red
//	go run ./tools/drill hint | verify      a hint, a grading (done: your solution is saved)
//	go run ./tools/drill reset NAME         the shipped code back, your work aside
//	go run ./tools/drill grade              every saved solution verified again
//	go run ./tools/drill list               chapters, weakenings, guarding tests
//	go run ./tools/drill try NAME           run a weakening (files untouched)
//	go run ./tools/drill check [--json]     the graded check over every chapter
//	go run ./tools/drill mutate             the chapters against mechanical mistakes
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
	// Ctrl-C, a CI runner stopping the job, or a closed terminal (SIGINT,
	// SIGTERM, SIGHUP, as the runner) ends the work through the
	// context, so scratch copies and child processes go with it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := drill.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
