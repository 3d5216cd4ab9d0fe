package drill

// This file holds the usage text and the misuse errors: what a learner sees
// when they call drill with no arguments, -h, or something it does not take.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/fencelab/fencelab/internal/runner/cli"
)

// usageError is misuse of the command line; Run prints it as one line and
// exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a *usageError.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errHelp reports that a command printed its help: exit 0.
var errHelp = errors.New("drill: help printed")

// usage prints the list of commands.
func (t *Tool) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: go run ./tools/drill <command> [arguments]\n\n")
	fmt.Fprintf(w, "Break-and-fix drills and exercises. Each weakening is a deliberate mistake in\n")
	fmt.Fprintf(w, "internal/ and names the chapter tests that must catch it. Each exercise starts\n")
	fmt.Fprintf(w, "its chapter red: a hidden fault to fix, a test to write, or a function to build.\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %-22s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintf(w, "\nCHAPTER is a chapter folder (ch02_cas_claim) or its short form (ch02).\n")
	fmt.Fprintf(w, "NAME is a weakening's name, as drill list prints it, or for start, hint, verify,\n")
	fmt.Fprintf(w, "watch and reset an exercise's name, as drill exercises prints it.\n")
	fmt.Fprintf(w, "Run 'go run ./tools/drill <command> -h' for a command's flags.\n")
}

// commandNames lists the subcommands for the one-line misuse message.
func commandNames() string { return strings.Join(commandList(), ", ") }

// commandList lists the subcommands.
func commandList() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// parseArgs parses fs's flags from args, which may come before, between or
// after the positional arguments, and returns the positional arguments.
// -h prints the command's usage and returns errHelp.
func parseArgs(fs *flag.FlagSet, args []string, argsHelp, summary string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage: go run ./tools/drill %s %s\n\n%s\n", fs.Name(), argsHelp, summary)
			if hasFlags(fs) {
				fmt.Fprintf(stderr, "\nflags:\n")
				fs.SetOutput(stderr)
				fs.PrintDefaults()
			}
			return nil, errHelp
		}
		if err != nil {
			return nil, usagef("%s (allowed: %s)", doubleDash(err.Error()), allowedFlags(fs))
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// flagInMessage is how the flag package names a flag in its errors, with
// one dash ("invalid value ... for flag -jobs", "not defined: -bogus",
// "flag needs an argument: -jobs", "invalid boolean value ... for -json").
var flagInMessage = regexp.MustCompile(`(flag |not defined: |argument: |for )-([A-Za-z])`)

// doubleDash spells flags in the flag package's messages as drill's usage
// and help spell them, with two dashes: one spelling in every message.
func doubleDash(msg string) string { return flagInMessage.ReplaceAllString(msg, "$1--$2") }

// hasFlags reports whether fs defines any flag.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// allowedFlags lists fs's flags for a misuse message.
func allowedFlags(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		name, _ := flag.UnquoteUsage(f)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			names = append(names, "--"+f.Name)
		} else {
			names = append(names, "--"+f.Name+" "+name)
		}
	})
	if len(names) == 0 {
		return "no flags"
	}
	return strings.Join(names, ", ")
}

// jobsFlag is --jobs of check and mutate: plain decimal, as every number
// the runner reads (see cli.IntFlag); 0 leaves the choice to the runner
// of variants.
var jobsFlag = cli.IntFlag{Name: "jobs", Min: 0, Max: 256}
