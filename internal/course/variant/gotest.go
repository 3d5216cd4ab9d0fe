package variant

// This file runs tests: `go test -json` over chapter packages, through an
// overlay when a variant replaces files, and a test binary a shared build
// made, run directly under test2json with a variant switched on.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GoTest is one `go test -json` run.
type GoTest struct {
	// Packages are the patterns to test, relative to Root ("./chapters/ch02_cas_claim/").
	Packages []string
	// Overlay replaces files of the module for this run; nil for none.
	Overlay Overlay
	// Flags go before the packages: "-run", "^TestX$"; "-list", ".".
	Flags []string
	// OnEvent, if not nil, sees every event as it arrives.
	OnEvent func(Event)
}

// GoTest runs `go test -json -count=1 -vet=off -timeout T` as g says. Vet
// is off because no variant is graded on it and it would rerun for every
// rebuilt package.
//
// The result maps each package's import path to what it did. An error
// means the go command could not be run at all (or ctx was cancelled); a
// failed build or failing tests are described by the runs. If the go
// command failed before naming any package (a bad overlay, a pattern that
// matches nothing), the result has one entry under the key "" with
// BuildFailed set.
func (r *Runner) GoTest(ctx context.Context, g GoTest) (map[string]*PackageRun, error) {
	if err := r.setup(ctx); err != nil {
		return nil, err
	}
	args := []string{"test", "-json", "-count=1", "-vet=off", "-timeout", r.TestTimeout().String()}
	if len(g.Overlay) > 0 {
		dir, err := r.TempDir(ctx, "overlay-")
		if err != nil {
			return nil, err
		}
		name, err := g.Overlay.Write(dir)
		if err != nil {
			return nil, err
		}
		args = append(args, "-overlay", name)
	}
	args = append(args, g.Flags...)
	args = append(args, g.Packages...)
	// The test binary enforces -timeout itself; this deadline is a
	// backstop for a go command that hangs while building.
	ctx, cancel := context.WithTimeout(ctx, r.TestTimeout()+10*time.Minute)
	defer cancel()
	return r.events(ctx, r.command(ctx, r.Root, r.goCmd(), args...), "go test "+strings.Join(g.Packages, " "), g.OnEvent)
}

// Binary is a chapter's test binary from a shared build.
type Binary struct {
	Path       string // the executable
	ImportPath string // the chapter package's import path, for the events
	Dir        string // the chapter's folder: tests run there, as go test runs them
}

// RunBinary runs b under test2json with variant num switched on (0 for
// none), bounded by timeout, with the test flags given ("-test.run=^TestX$",
// "-test.failfast"), and returns what the package did.
func (r *Runner) RunBinary(ctx context.Context, b Binary, num int, timeout time.Duration, flags ...string) (*PackageRun, error) {
	if err := r.setup(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+15*time.Second)
	defer cancel()
	args := append(r.test2json[1:len(r.test2json):len(r.test2json)], "-t", "-p", b.ImportPath, b.Path,
		"-test.v=test2json", "-test.count=1", "-test.timeout="+timeout.String())
	args = append(args, flags...)
	cmd := r.command(ctx, b.Dir, r.test2json[0], args...)
	// A judge needs a test's failure, not its shortest form: rapid's
	// shrinking (chapter 9's model tests) would replay a failing sequence
	// for seconds more on every mutant and weakening it catches.
	cmd.Env = append(cmd.Env, SwitchEnv+"="+strconv.Itoa(num), "RAPID_SHRINKTIME=1ms")
	runs, err := r.events(ctx, cmd, "run "+filepath.Base(b.Path), nil)
	if err != nil {
		return nil, err
	}
	run := runs[b.ImportPath]
	if run == nil {
		run = &PackageRun{Package: b.ImportPath, Tests: map[string]*Test{}, Action: "fail"}
		if other := runs[""]; other != nil {
			run.Output, run.TimedOut = other.BuildOutput, other.TimedOut
		}
	}
	return run, nil
}

// events starts cmd, reads the events it prints, and folds them into
// per-package runs. what names the command in errors.
func (r *Runner) events(ctx context.Context, cmd *exec.Cmd, what string, onEvent func(Event)) (map[string]*PackageRun, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	p := readEvents(stdout, onEvent)
	waitErr := cmd.Wait()
	seconds := time.Since(start).Seconds()
	if err := context.Cause(ctx); err != nil && errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var exit *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exit) && ctx.Err() == nil {
		return nil, fmt.Errorf("%s: %w", what, waitErr)
	}
	runs := p.finish(strings.TrimSpace(stderr.String()))
	for _, run := range runs {
		run.Seconds = seconds
		if ctx.Err() != nil {
			run.TimedOut = true
		}
	}
	if waitErr != nil && len(runs) == 0 {
		runs[""] = &PackageRun{Tests: map[string]*Test{}, BuildFailed: ctx.Err() == nil,
			BuildOutput: strings.TrimSpace(p.all.String() + stderr.String()), Seconds: seconds, TimedOut: ctx.Err() != nil}
	}
	return runs, nil
}

// RunOf returns the run of the chapter folder called chapter: the package
// whose import path ends in /chapters/<chapter>. It falls back to the
// entry under "" (a go command that failed before naming a package).
func RunOf(runs map[string]*PackageRun, chapter string) (*PackageRun, bool) {
	for pkg, r := range runs {
		if pkg != "" && strings.HasSuffix(pkg, "/chapters/"+chapter) {
			return r, true
		}
	}
	r, ok := runs[""]
	return r, ok
}

// RunPattern is the -run pattern that selects the top-level tests of
// tests (a subtest "TestX/case" selects TestX), each once.
func RunPattern(tests []string) string {
	var tops []string
	for _, name := range tests {
		top, _, _ := strings.Cut(name, "/")
		if q := regexp.QuoteMeta(top); !slices.Contains(tops, q) {
			tops = append(tops, q)
		}
	}
	return "^(" + strings.Join(tops, "|") + ")$"
}
