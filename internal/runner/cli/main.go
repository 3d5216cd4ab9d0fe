package cli

// This file holds Main: the common rules every runner command follows.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Main runs the command named by args[0] and returns the exit status:
// 0 the experiment ran, 1 it failed, was interrupted (ctx cancelled) or
// found a violation (a *Finding), 2 misuse. stdout receives exactly one
// JSON document (or the text or SVG drawing) and nothing else, and only when the
// status is 0 or the experiment returned a *Finding with its result.
func Main(ctx context.Context, cmds []Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr, cmds)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(stderr, cmds)
		return 0
	case "help":
		return help(cmds, args, stderr)
	}
	cmd, ok := find(cmds, args[0])
	if !ok {
		return Misuse(stderr, "fencelab", fmt.Sprintf("unknown command %q: want one of %s", args[0], commandNames(cmds)), args)
	}
	return run(ctx, cmd, args[1:], stdout, stderr)
}

// help answers `fencelab help` with the list of commands and `fencelab
// help COMMAND` with that command's usage, exactly what `fencelab COMMAND
// -h` prints; a command it does not know, or more than one, is misuse.
func help(cmds []Command, args []string, stderr io.Writer) int {
	switch len(args) {
	case 1:
		printUsage(stderr, cmds)
		return 0
	case 2:
		cmd, ok := find(cmds, args[1])
		if !ok {
			return Misuse(stderr, "fencelab help", fmt.Sprintf("unknown command %q: want one of %s", args[1], commandNames(cmds)), args)
		}
		printCommandUsage(stderr, cmd, newFlags(cmd).FlagSet)
		return 0
	}
	return Misuse(stderr, "fencelab help", fmt.Sprintf("unexpected argument %q: want at most one command, one of %s", args[2], commandNames(cmds)), args)
}

// flags is a command's flag set: its experiment's flags and the frame's.
type flags struct {
	*flag.FlagSet
	exp     Experiment
	keep    *bool
	format  *string
	formats []string
	draw    drawer
}

// newFlags makes cmd's experiment and the flag set that fills it, the
// frame's own flags (--keep, --format) included.
func newFlags(cmd Command) *flags {
	fs := flag.NewFlagSet("fencelab "+cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	exp := cmd.New(fs)
	keep := fs.Bool("keep", false, "keep the temporary directory and print its path on stderr")
	// Every command prints JSON; those that can also draw their run for a
	// person accept --format text, and those with a timeline --format svg.
	formats := []string{"json"}
	textExp, drawsText := exp.(TextExperiment)
	if drawsText {
		formats = append(formats, "text")
	}
	svgExp, drawsSVG := exp.(SVGExperiment)
	if drawsSVG {
		formats = append(formats, "svg")
	}
	format := fs.String("format", "json", "output `"+strings.Join(formats, "|")+"`")
	return &flags{FlagSet: fs, exp: exp, keep: keep, format: format, formats: formats, draw: drawer{text: textExp, svg: svgExp}}
}

func run(ctx context.Context, cmd Command, args []string, stdout, stderr io.Writer) int {
	prefix := "fencelab " + cmd.Name
	f := newFlags(cmd)
	fs, exp, keep, formats, draw := f.FlagSet, f.exp, f.keep, f.formats, f.draw

	err := fs.Parse(args)
	format := *f.format
	switch {
	case errors.Is(err, flag.ErrHelp):
		printCommandUsage(stderr, cmd, fs)
		return 0
	case err != nil:
		return Misuse(stderr, prefix, fmt.Sprintf("%v (allowed: %s)", err, allowedFlags(fs)), args)
	case fs.NArg() > 0:
		return Misuse(stderr, prefix, fmt.Sprintf("unexpected argument %q: the runner takes no paths or names, only flags (allowed: %s)",
			fs.Arg(0), allowedFlags(fs)), args)
	}
	err = OneOf("format", format, formats)
	if fc, ok := exp.(FormatChecker); ok && err == nil {
		err = fc.CheckFormat(format)
	}
	if err == nil {
		err = exp.Validate()
	}
	if err != nil {
		return Misuse(stderr, prefix, err.Error(), args)
	}

	dir, err := makeRunDir(cmd.Name, *keep)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prefix, err)
		return 1
	}
	result, err := exp.Run(ctx, Env{Dir: dir, Stderr: stderr})
	// The directory goes before anything is printed: a run whose clean-up
	// failed must not have printed a result that looks like success.
	cleanup := "kept " + dir // what became of the directory, in words
	if !*keep {
		cleanup = "temporary files removed"
		if rmErr := removeRunDir(dir); rmErr != nil {
			cleanup = rmErr.Error()
			err = errors.Join(err, rmErr)
		}
	}
	var finding *Finding
	switch {
	case ctx.Err() != nil:
		// The workers' errors are only echoes of the interrupt.
		fmt.Fprintf(stderr, "%s: interrupted; workers stopped, %s\n", prefix, cleanup)
		return 1
	case errors.As(err, &finding) && finding == err:
		// The experiment ran and found a violation: its result is worth
		// printing, and the status says what it found.
		if *keep {
			fmt.Fprintf(stderr, "%s: %s\n", prefix, cleanup)
		}
		if code := printResult(stdout, stderr, prefix, format, draw, result); code != 0 {
			return code
		}
		fmt.Fprintf(stderr, "%s: %s\n", prefix, oneLine(finding.Error()))
		return 1
	case err != nil:
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		if *keep {
			msg += "; " + cleanup
		}
		fmt.Fprintf(stderr, "%s: %s\n", prefix, msg)
		return 1
	case *keep:
		fmt.Fprintf(stderr, "%s: %s\n", prefix, cleanup)
	}
	return printResult(stdout, stderr, prefix, format, draw, result)
}

// drawer is what an experiment can draw besides JSON; a nil field is a
// format the command does not accept.
type drawer struct {
	text TextExperiment
	svg  SVGExperiment
}

// printResult prints result on stdout in format and returns 0, or 1 with
// a line on stderr if it cannot be written. A drawing is made in memory
// first, so a drawing that fails half-way prints nothing.
func printResult(stdout, stderr io.Writer, prefix, format string, draw drawer, result any) int {
	var err error
	switch format {
	case "text":
		err = draw.text.Text(stdout, result)
	case "svg":
		var b bytes.Buffer
		if err = draw.svg.SVG(&b, result); err == nil {
			_, err = b.WriteTo(stdout)
		}
	default:
		err = WriteJSON(stdout, result)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: write result: %v\n", prefix, err)
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
