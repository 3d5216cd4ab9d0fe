package cli

// This file holds what the runner says about its own command line: the
// usage text, and the list of flags a misuse message names as allowed.

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

func printUsage(w io.Writer, cmds []Command) {
	fmt.Fprintf(w, "usage: fencelab <command> [flags]\n\ncommands:\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun 'fencelab <command> -h' for a command's flags. Output is one JSON document on\nstdout, or with --format text or --format svg a drawing of the run, where a command has one.\n")
}

func printCommandUsage(w io.Writer, cmd Command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: fencelab %s [flags]\n\n%s\n\nflags:\n", cmd.Name, cmd.Summary)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func commandNames(cmds []Command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
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
// or VALUE. (UnquoteUsage names no placeholder only for a boolean flag,
// which allowedFlags lists without one.)
func valueName(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	if name == "value" {
		return "VALUE"
	}
	return name
}
