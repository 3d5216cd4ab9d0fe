// Package cli is the frame of the fencelab runner: it parses the command
// line and enforces the runner's common rules (internal/runner/CONTRACT.md,
// section "Common rules"): exit codes, one-line misuse messages, plain
// decimal numbers, one JSON document on stdout, a temporary directory for
// every database that is removed afterwards, and a clean stop on an
// interrupt.
//
// An experiment never touches os.Args, os.Exit or the real stdout; it
// receives its parsed flags and an Env, and returns the value to print.
// Its worker processes are package worker's business.
package cli

import (
	"context"
	"flag"
	"io"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Command is one runner command, such as "claim" or "fencing".
type Command struct {
	Name    string
	Summary string // one line for the usage text
	// New registers the command's flags on fs and returns the experiment
	// they configure. The flags are parsed after New returns and before
	// Validate is called.
	New func(fs *flag.FlagSet) Experiment
	// Roles are the workers this command starts (see worker.Start).
	Roles []worker.Role
}

// Experiment is one configured run of a command.
type Experiment interface {
	// Validate checks the parsed flags. It runs before any file or process
	// exists; an error from it is misuse (exit status 2).
	Validate() error
	// Run performs the experiment with its databases under env.Dir and
	// returns the value printed as the command's JSON document.
	Run(ctx context.Context, env Env) (any, error)
}

// TextExperiment is an Experiment that can also draw its result for a
// person. Only such commands accept --format text.
type TextExperiment interface {
	Experiment
	Text(w io.Writer, result any) error
}

// SVGExperiment is an Experiment that can draw its result as a picture
// (package timeline). Only such commands accept --format svg.
type SVGExperiment interface {
	Experiment
	SVG(w io.Writer, result any) error
}

// FormatChecker is an Experiment whose parsed flags can leave nothing to
// draw in a format it otherwise accepts: naive --race has no timeline to
// picture. CheckFormat runs after the flags are parsed and before
// Validate; an error from it is misuse (exit status 2).
type FormatChecker interface {
	CheckFormat(format string) error
}

// Env is what the frame hands a running experiment.
type Env struct {
	Dir    string    // a fresh temporary directory, removed afterwards unless --keep
	Stderr io.Writer // diagnostics for the person at the terminal
}

// Roles lists every worker role the commands start: what a process
// started as a worker may play.
func Roles(cmds []Command) []worker.Role {
	var roles []worker.Role
	for _, c := range cmds {
		roles = append(roles, c.Roles...)
	}
	return roles
}
