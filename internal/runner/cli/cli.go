// Package cli is the frame of the fencelab runner: it parses the command
// line, enforces the runner's common rules (exit codes, one JSON document on
// stdout, a temporary directory for every database) and starts the worker
// processes an experiment asks for.
//
// An experiment never touches os.Args, os.Exit or the real stdout; it
// receives its parsed flags and an Env, and returns the value to print.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Command is one runner command, such as "claim" or "fencing".
type Command struct {
	Name    string
	Summary string // one line for the usage text
	// New registers the command's flags on fs and returns the experiment
	// they configure. The flags are parsed after New returns and before
	// Validate is called.
	New func(fs *flag.FlagSet) Experiment
	// Roles are the worker processes this command starts (see StartChild).
	Roles []Role
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

// Env is what the frame hands a running experiment.
type Env struct {
	Dir    string    // a fresh temporary directory, removed afterwards unless --keep
	Stderr io.Writer // diagnostics for the person at the terminal
}

// UsageError is misuse of the command line: a bad flag value, a stray
// argument. The runner prints it as one line and exits 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a *UsageError; experiments return it from Validate.
func Usagef(format string, args ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, args...)}
}

// IntFlag describes an integer flag bounded to [Min, Max], for error
// messages that name what is allowed.
type IntFlag struct {
	Name     string
	Min, Max int
}

// Check returns a *UsageError if v lies outside the flag's range.
func (f IntFlag) Check(v int) error {
	if v < f.Min || v > f.Max {
		return Usagef("--%s %d is out of range: want an integer from %d to %d", f.Name, v, f.Min, f.Max)
	}
	return nil
}

// OneOf returns a *UsageError unless v is one of allowed.
func OneOf(flagName, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return Usagef("--%s %q is not allowed: want one of %s", flagName, v, strings.Join(allowed, ", "))
}

// allowedFlags lists a flag set's flags as "--name VALUE", for the one-line
// misuse message.
func allowedFlags(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if isBool(f) {
			names = append(names, "--"+f.Name)
		} else {
			names = append(names, "--"+f.Name+" "+valueName(f))
		}
	})
	sort.Strings(names)
	if len(names) == 0 {
		return "no flags"
	}
	return strings.Join(names, ", ")
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// valueName is the placeholder a flag's usage string names in backquotes,
// or VALUE.
func valueName(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	if name == "" || name == "value" {
		return "VALUE"
	}
	return name
}
