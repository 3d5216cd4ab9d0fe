package mutate

// This file decides which test packages judge a mutant of a package, and
// how: the judges' tests must be able to reach the mutated code.
//
//   - A mechanism package is judged by the chapters whose tests use it,
//     directly or through another mechanism package, a helper or a
//     package of the chapter. Every chapter reaches every package through
//     the runner its scripts start, so the runner is not followed: a
//     chapter about sessions does not run for a mailbox mutant.
//   - A runner package is judged by the chapters' tests and scripts, the
//     pictures' test and the runner's own tests that reach it. A chapter
//     that reaches the runner only through its script harness judges the
//     shared plumbing (cli, worker, ...) and the experiments whose
//     commands its scripts run, with its scripts alone.
//   - A tooling package is judged by its own tests.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// reach is how a judge's tests reach a mutated package.
type reach int

const (
	// reachTests: the tests' own imports reach it; every test may kill.
	reachTests reach = iota + 1
	// reachScripts: only the runner its scripts start reaches it; only
	// the scripts can kill.
	reachScripts
)

// judge is one test package that can kill mutants.
type judge struct {
	variant.Chapter
	// uses says, for each mutated package folder its tests reach, how.
	uses map[string]reach
	// testSide is a hash of what its test binary is built from on the test
	// side: see key.go.
	testSide string
	// own and ownSide are set only for a judge of its own package: its
	// folder, and testSide without that package's code, the key of its
	// own mutants (key.go).
	own, ownSide string
	// tests, if set, is the -test.run pattern of the only tests that judge
	// (a tooling package's, Package.Tests).
	tests string
}

// listedPackage is what `go list -json` says of one package.
type listedPackage struct {
	ImportPath   string
	Dir          string
	Imports      []string
	TestImports  []string
	XTestImports []string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
}

// hasTests reports whether the package has a test binary to run.
func (p *listedPackage) hasTests() bool { return len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 }

// testImports are every import of the package and its tests.
func (p *listedPackage) testImports() []string {
	return append(append(append([]string(nil), p.Imports...), p.TestImports...), p.XTestImports...)
}

// listing is the module's packages as go list sees them.
type listing struct {
	module string
	tree   Tree
	root   string
	byPath map[string]*listedPackage
	order  []string // import paths in go list's order
}

// listPackages runs go list over the chapters and internal/.
func listPackages(ctx context.Context, r *variant.Runner, module string, tree Tree) (*listing, error) {
	cmd, err := r.GoCommand(ctx, "list", "-e", "-json=ImportPath,Dir,Imports,TestImports,XTestImports,GoFiles,TestGoFiles,XTestGoFiles", "./chapters/...", "./internal/...")
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	l := &listing{module: module, tree: tree, root: r.Root, byPath: map[string]*listedPackage{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		l.byPath[p.ImportPath] = &p
		l.order = append(l.order, p.ImportPath)
	}
	return l, nil
}

// rel is an import path of the module relative to its root, or "" for a
// path outside the module.
func (l *listing) rel(importPath string) string {
	rel, ok := strings.CutPrefix(importPath, l.module+"/")
	if !ok {
		return ""
	}
	return rel
}

// layer is the layer of a package of the module, "" if it is not under
// internal/ or declared.
func (l *listing) layer(rel string) Layer {
	if row, ok := l.tree.Lookup(rel); ok {
		return row.Layer
	}
	return ""
}

// judges returns every test package that reaches a mutated package, in
// name order.
func (l *listing) judges() ([]*judge, error) {
	commands, err := l.commands()
	if err != nil {
		return nil, err
	}
	var out []*judge
	names := map[string]string{}
	for _, ip := range l.order {
		p := l.byPath[ip]
		rel := l.rel(ip)
		if !p.hasTests() || !strings.HasPrefix(rel, "chapters/") && l.layer(rel) != Runner && l.layer(rel) != Tooling {
			continue
		}
		j := &judge{Chapter: variant.Chapter{Name: judgeName(rel), ImportPath: ip, Dir: p.Dir}, uses: map[string]reach{}}
		switch {
		case l.layer(rel) == Tooling:
			if l.mutated(rel) {
				j.uses[rel] = reachTests
				row, _ := l.tree.Lookup(rel)
				j.tests = row.Tests
			}
		default:
			l.mechanismUses(j, p, rel)
			if err := l.runnerUses(j, p, rel, commands); err != nil {
				return nil, err
			}
		}
		if len(j.uses) == 0 {
			continue
		}
		// go test -c names each binary after the last element of its path.
		if other, dup := names[path.Base(ip)]; dup {
			return nil, fmt.Errorf("mutate: the test packages %s and %s would build binaries of the same name", other, ip)
		}
		names[path.Base(ip)] = ip
		out = append(out, j)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, nil
}

// judgeName names a judge in reports: a chapter by its folder
// (ch02_cas_claim), anything else by its path (internal/runner/cli).
func judgeName(rel string) string {
	if strings.HasPrefix(rel, "chapters/ch") && strings.Count(rel, "/") == 1 {
		return path.Base(rel)
	}
	return rel
}

// closure returns the module packages reachable from imports (relative
// paths), following only those follow accepts.
func (l *listing) closure(imports []string, follow func(rel string) bool) map[string]bool {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(ip string) {
		rel := l.rel(ip)
		if rel == "" || seen[rel] || !follow(rel) {
			return
		}
		seen[rel] = true
		if lp := l.byPath[ip]; lp != nil {
			for _, next := range lp.Imports {
				visit(next)
			}
		}
	}
	for _, ip := range imports {
		visit(ip)
	}
	return seen
}

// mechanismUses records the mechanism packages a chapter's tests reach
// without going through the runner or the tooling.
func (l *listing) mechanismUses(j *judge, p *listedPackage, rel string) {
	if !strings.HasPrefix(rel, "chapters/") || strings.HasPrefix(rel, "chapters/internal/") {
		return
	}
	reached := l.closure(p.testImports(), func(rel string) bool {
		layer := l.layer(rel)
		return layer == Mechanism || layer == Helper || strings.HasPrefix(rel, "chapters/") && !strings.HasPrefix(rel, "chapters/internal/")
	})
	for rel := range reached {
		if l.layer(rel) == Mechanism && l.mutated(rel) {
			j.uses[rel] = reachTests
		}
	}
}
