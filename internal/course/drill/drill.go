// Package drill is the break-and-fix tool behind `go run ./tools/drill`: it
// lists, shows, tries, applies and restores the weakenings in the course's
// catalog (see package weakening), grades a tree by checking that every
// weakening is caught by the chapter tests that claim to guard against it,
// and runs the learner track's exercises (see package exercise): start,
// hint, verify, watch, reset and progress.
//
// Nothing here edits the working tree except apply and restore, and start
// and reset: try and check build the weakened code through the go
// command's -overlay flag.
package drill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
	"github.com/fencelab/fencelab/internal/course/weakening"
	"github.com/fencelab/fencelab/internal/runner/cli"
)

// Tool runs drill commands against one module.
type Tool struct {
	// Root is the module root; if empty, Run finds it from the working
	// directory (see FindRoot).
	Root   string
	Stdout io.Writer
	Stderr io.Writer
	// Go is the go command to run; "go" if empty.
	Go string
	// Jobs bounds how many go commands run at once; variant.DefaultJobs()
	// if zero.
	Jobs int
	// Timeout is passed to every go test as -timeout;
	// variant.DefaultTimeout if zero.
	Timeout time.Duration
	// Env is added to the environment of every go command.
	Env []string
	// SummaryFile, if set, is a file check appends its table to as
	// Markdown (the workflow sets it to $GITHUB_STEP_SUMMARY).
	SummaryFile string
}

// Main runs drill with args (without the program name) from the current
// directory, writing to stdout and stderr, and returns the exit status:
// 0 success, 1 a failed check or a refused request, 2 misuse.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	t := &Tool{Stdout: stdout, Stderr: stderr, SummaryFile: os.Getenv("GITHUB_STEP_SUMMARY")}
	return t.Run(ctx, args)
}

// commands are the subcommands, in the order usage lists them.
var commands = []struct {
	name, args, summary string
	run                 func(t *Tool, ctx context.Context, args []string) error
}{
	// The learner's track.
	{"exercises", "[CHAPTER] [--json]", "every exercise with its kind (fix, test, build) and your status", (*Tool).exercisesCmd},
	{"start", "NAME", "begin an exercise: its chapter goes red until you are done", (*Tool).start},
	{"hint", "[NAME]", "the next hint: the property, then the file and function, then the lines", (*Tool).hint},
	{"verify", "[NAME] [-v]", "grade the current exercise; once done, your solution is saved", (*Tool).verify},
	{"watch", "[NAME] [-v]", "grade the current exercise again on every save", (*Tool).watch},
	{"reset", "NAME", "put the shipped code back, keeping your work aside", (*Tool).reset},
	{"progress", "[--json]", "exercises done, hints used and test scores, per chapter", (*Tool).progress},
	{"grade", "[NAME...] [--json]", "verify every saved solution again from the shipped code (what CI runs)", (*Tool).grade},
	// The weakenings: the chapters' mistakes, tried one at a time.
	{"list", "[CHAPTER]", "chapters, their weakenings, and the tests that guard each", (*Tool).list},
	{"show", "NAME", "the edit as a diff, the command to run, the failure to expect", (*Tool).show},
	{"try", "NAME", "run the chapter's tests with the weakening applied (working tree untouched)", (*Tool).try},
	{"apply", "NAME", "make the edit in the working tree, to see it in your editor", (*Tool).apply},
	{"restore", "", "undo what apply did, byte for byte", (*Tool).restore},
	// The course's own checks.
	{"check", "[CHAPTER...] [--json]", "the graded check: every weakening caught, every test able to fail", (*Tool).check},
	{"mutate", "[PACKAGE...] [--json] [--survivors]", "mutation testing: the chapters against mistakes nobody chose", (*Tool).mutate},
}

// Run runs the subcommand args[0] and returns the exit status.
func (t *Tool) Run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		t.usage(t.Stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		t.usage(t.Stderr)
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(t, ctx, args[1:])
		var u *usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, errHelp):
			return 0
		case errors.As(err, &u):
			return cli.Misuse(t.Stderr, "drill "+c.name, err.Error(), args[1:])
		case ctx.Err() != nil || errors.Is(err, exercise.ErrInterrupted):
			fmt.Fprintf(t.Stderr, "drill %s: interrupted\n", c.name)
			return 1
		case errors.Is(err, errReported):
			return 1
		default:
			fmt.Fprintf(t.Stderr, "drill %s: %s\n", c.name, plain(err))
			return 1
		}
	}
	msg := fmt.Sprintf("unknown command %q: want one of %s", args[0], commandNames())
	if near := nearest(args[0], commandList()); near != "" {
		msg = fmt.Sprintf("unknown command %q (did you mean %s?): want one of %s", args[0], near, commandNames())
	}
	return cli.Misuse(t.Stderr, "drill", msg, args)
}

// lockTree takes the tree's drill lock for command, once its arguments
// are read (a misuse is told as such, whoever holds the lock): every
// command that changes the working tree, drill's state or the committed
// verdict files holds it, so two of them on one tree at once never read
// what the other is changing. It returns the function that releases it.
func (t *Tool) lockTree(root, command string) (func(), error) {
	return exercise.Lock(root, command)
}

// origin is the prefix a package's sentinel errors carry ("exercise: ");
// a learner reads drill's messages without them.
var origin = regexp.MustCompile(`(^|: )(drill|exercise|weakening|variant|check|mutate): `)

// plain returns err's message without the packages' prefixes.
func plain(err error) string { return origin.ReplaceAllString(err.Error(), "$1") }

// errReported is returned by a command that has already said why it
// failed; Run only sets the exit status.
var errReported = errors.New("drill: failure already reported")

// runner returns a variant.Runner for the module at root, set as t is;
// the caller closes it.
func (t *Tool) runner(root string) *variant.Runner {
	return &variant.Runner{Root: root, Go: t.Go, Env: t.Env, Jobs: t.Jobs, Timeout: t.Timeout}
}

// catalog finds the module root and loads its catalog.
func (t *Tool) catalog() (string, *weakening.Catalog, error) {
	root, err := t.root()
	if err != nil {
		return "", nil, err
	}
	cat, err := weakening.Load(root)
	if err != nil {
		return "", nil, err
	}
	return root, cat, nil
}

// lookup returns the weakening called name. An unknown name is misuse; a
// name whose catalog file is broken is an error saying why.
func lookup(cat *weakening.Catalog, name string) (*weakening.Weakening, error) {
	if w, ok := cat.Lookup(name); ok {
		return w, nil
	}
	if b, ok := cat.LookupBroken(name); ok {
		return nil, fmt.Errorf("%s cannot be used: %w", name, b.Err)
	}
	if _, ok := exerciseNames(cat)[name]; ok {
		return nil, usagef("%q is an exercise, not a weakening: begin it with 'go run ./tools/drill start %s' (weakenings: go run ./tools/drill list)", name, name)
	}
	var names []string
	for _, ch := range cat.Chapters {
		for _, w := range ch.Weakenings {
			names = append(names, w.Name)
		}
	}
	if near := nearest(name, names); near != "" {
		return nil, usagef("unknown weakening %q (did you mean %s?): run 'go run ./tools/drill list' for the names", name, near)
	}
	return nil, usagef("unknown weakening %q: run 'go run ./tools/drill list' for the names", name)
}

// exerciseNames returns the names of cat's exercises, or none if they
// cannot be read: it only improves a misuse message.
func exerciseNames(cat *weakening.Catalog) map[string]bool {
	out := map[string]bool{}
	if set, err := exercise.Load(cat); err == nil {
		for _, e := range set.Exercises {
			out[e.Name] = true
		}
	}
	return out
}

// named loads the catalog and returns the module root and the one
// weakening args names, for the commands that take exactly one NAME.
func (t *Tool) named(cmd string, args []string) (string, *weakening.Weakening, error) {
	if len(args) != 1 {
		return "", nil, usagef("want exactly one weakening name, as in 'go run ./tools/drill %s NAME' (names: go run ./tools/drill list)", cmd)
	}
	root, cat, err := t.catalog()
	if err != nil {
		return "", nil, err
	}
	w, err := lookup(cat, args[0])
	if err != nil {
		return "", nil, err
	}
	return root, w, nil
}

// writeJSON writes v as one 2-space indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
