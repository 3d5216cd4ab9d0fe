package companion

// This file builds the companion and hands it the command line.

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

// Module is the module whose companion is built.
const Module = "github.com/fencelab/fencelab"

// Package is the companion's main package, inside the module.
const Package = "./tools/fencelab/withetcd"

// ErrNoSource is returned when the companion cannot be built because the
// module's source is nowhere to be found: the binary was moved away from
// the repository it was built from.
var ErrNoSource = errors.New("the fencelab source, which the etcd companion is built from, is not here: run the command from the repository (go run ./tools/fencelab ...)")

// Exec builds the companion if it is missing or out of date, and
// replaces this process with it, running os.Args[1:]: the same command,
// flags and all. It returns only if that fails. The frame's temporary
// directory, env.Dir, is removed first, with the file in it that names its
// owner: the companion makes its own.
func Exec(ctx context.Context, env cli.Env) error {
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	bin, err := binaryPath(root)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		fmt.Fprintf(env.Stderr, "fencelab: building the etcd companion (%s) once, into %s; etcd is not in the fencelab binary's own build\n", Package, filepath.Dir(bin))
	}
	if err := build(ctx, root, bin, env); err != nil {
		return err
	}
	if err := os.RemoveAll(env.Dir); err != nil {
		return err
	}
	args := append([]string{"fencelab"}, os.Args[1:]...)
	return fmt.Errorf("start the etcd companion %s: %w", bin, syscall.Exec(bin, args, os.Environ()))
}

// build runs go build, which relinks the companion only when its sources
// changed since the last build. The go command is a child like a worker:
// it dies with this process (worker.StartChild).
func build(ctx context.Context, root, bin string, env cli.Env) error {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the etcd companion is built with the go command, which is not on PATH: %w", err)
	}
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", bin, Package)
	cmd.Dir = root
	// Its work folder goes in the run's: a build killed with this process
	// leaves it where the next run's sweep finds it.
	cmd.Env = append(os.Environ(), "GOTMPDIR="+env.Dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err = worker.StartChild(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("build the etcd companion: %w: %s", err, strings.TrimSpace(out.String()))
	}
	return nil
}

// binaryPath is where the companion of the module at root is kept: in the
// user's cache, one per checkout.
func binaryPath(root string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find a cache directory for the etcd companion: %w", err)
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(cache, "fencelab", fmt.Sprintf("%x", sum[:6]), "fencelab-etcd"), nil
}

// moduleRoot finds the module's source: where this file was compiled
// from, if it is still there, else the module the working directory is
// in.
func moduleRoot(ctx context.Context) (string, error) {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		root := filepath.Join(filepath.Dir(file), "..", "..", "..")
		if isModule(filepath.Join(root, "go.mod")) {
			return filepath.Clean(root), nil
		}
	}
	var out strings.Builder
	cmd := exec.CommandContext(ctx, "go", "env", "GOMOD")
	cmd.Stdout = &out
	err := worker.StartChild(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	if gomod := strings.TrimSpace(out.String()); err == nil && isModule(gomod) {
		return filepath.Dir(gomod), nil
	}
	return "", ErrNoSource
}

// isModule reports whether the go.mod file at path declares Module.
func isModule(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(first) == "module "+Module
}
