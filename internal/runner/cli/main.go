package cli

// This file holds Main: the common rules every runner command follows.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Main runs the command named by args[0] and returns the exit status:
// 0 the experiment ran, 1 it failed, 2 misuse. stdout receives exactly one
// JSON document (or the text drawing) and nothing else.
func Main(ctx context.Context, cmds []Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr, cmds)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		printUsage(stderr, cmds)
		return 0
	}
	cmd, ok := find(cmds, args[0])
	if !ok {
		fmt.Fprintf(stderr, "fencelab: unknown command %q: want one of %s\n", args[0], commandNames(cmds))
		return 2
	}
	return run(ctx, cmd, args[1:], stdout, stderr)
}

func run(ctx context.Context, cmd Command, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fencelab "+cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	exp := cmd.New(fs)
	keep := fs.Bool("keep", false, "keep the temporary directory and print its path on stderr")
	// Every command prints JSON; those that can also draw their run for a
	// person accept --format text.
	formats := []string{"json"}
	textExp, drawsText := exp.(TextExperiment)
	if drawsText {
		formats = append(formats, "text")
	}
	var format string
	fs.StringVar(&format, "format", "json", "output `"+strings.Join(formats, "|")+"`")

	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printCommandUsage(stderr, cmd, fs)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "fencelab %s: %v (allowed: %s)\n", cmd.Name, err, allowedFlags(fs))
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "fencelab %s: unexpected argument %q: the runner takes no paths or names, only flags (allowed: %s)\n",
			cmd.Name, fs.Arg(0), allowedFlags(fs))
		return 2
	}
	err = OneOf("format", format, formats)
	if err == nil {
		err = exp.Validate()
	}
	if err != nil {
		fmt.Fprintf(stderr, "fencelab %s: %v\n", cmd.Name, err)
		return 2
	}

	dir, err := os.MkdirTemp("", "fencelab-"+cmd.Name+"-")
	if err != nil {
		fmt.Fprintf(stderr, "fencelab %s: %v\n", cmd.Name, err)
		return 1
	}
	defer func() {
		if *keep {
			fmt.Fprintf(stderr, "fencelab %s: kept %s\n", cmd.Name, dir)
			return
		}
		if err := os.RemoveAll(dir); err != nil {
			fmt.Fprintf(stderr, "fencelab %s: remove %s: %v\n", cmd.Name, dir, err)
		}
	}()

	result, err := exp.Run(ctx, Env{Dir: dir, Stderr: stderr})
	if err != nil && ctx.Err() != nil {
		// The workers' errors are only echoes of the interrupt.
		fmt.Fprintf(stderr, "fencelab %s: interrupted; workers stopped, temporary files removed\n", cmd.Name)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "fencelab %s: %v\n", cmd.Name, err)
		return 1
	}
	if format == "text" {
		err = textExp.Text(stdout, result)
	} else {
		err = WriteJSON(stdout, result)
	}
	if err != nil {
		fmt.Fprintf(stderr, "fencelab %s: write result: %v\n", cmd.Name, err)
		return 1
	}
	return 0
}

// WriteJSON writes v as one 2-space indented JSON document with a trailing
// newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func find(cmds []Command, name string) (Command, bool) {
	for _, c := range cmds {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

func commandNames(cmds []Command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func printUsage(w io.Writer, cmds []Command) {
	fmt.Fprintf(w, "usage: fencelab <command> [flags]\n\ncommands:\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun 'fencelab <command> -h' for a command's flags. Output is one JSON document on stdout.\n")
}

func printCommandUsage(w io.Writer, cmd Command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: fencelab %s [flags]\n\n%s\n\nflags:\n", cmd.Name, cmd.Summary)
	fs.SetOutput(w)
	fs.PrintDefaults()
}
