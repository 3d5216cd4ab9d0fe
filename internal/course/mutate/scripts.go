package mutate

// This file finds what a chapter's scripts run: the runner commands they
// name, and the runner packages that implement them (each experiment
// package declares its commands as cli.Command values with a Name). A
// runner mutant in an experiment is judged by the scripts that run it.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// commands maps each runner package (relative folder) that declares runner
// commands to their names.
func (l *listing) commands() (map[string][]string, error) {
	out := map[string][]string{}
	for _, ip := range l.order {
		rel := l.rel(ip)
		if l.layer(rel) != Runner {
			continue
		}
		p := l.byPath[ip]
		for _, f := range p.GoFiles {
			names, err := commandNames(filepath.Join(p.Dir, f))
			if err != nil {
				return nil, err
			}
			if len(names) > 0 {
				out[rel] = append(out[rel], names...)
			}
		}
	}
	return out, nil
}

// commandNames returns the Name of every Command composite literal in a
// file: the runner commands it declares.
func commandNames(file string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isCommandType(lit.Type) {
			return true
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Name" {
					if v, ok := kv.Value.(*ast.BasicLit); ok && v.Kind == token.STRING {
						if s, err := strconv.Unquote(v.Value); err == nil {
							names = append(names, s)
						}
					}
				}
			}
		}
		return true
	})
	return names, nil
}

// isCommandType reports whether a composite literal's type is cli.Command.
func isCommandType(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Command" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "cli"
}

// scriptCommand finds a runner command in a script: "fencelab" and the
// word after it.
var scriptCommand = regexp.MustCompile(`\bfencelab\s+([a-z][a-z0-9-]*)`)

// scriptCommands returns the commands the scripts in dir/testdata/script
// name, and whether there is any script.
func scriptCommands(dir string) (map[string]bool, bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		return nil, false, err
	}
	cmds := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, false, err
		}
		for _, m := range scriptCommand.FindAllStringSubmatch(string(data), -1) {
			cmds[m[1]] = true
		}
	}
	return cmds, true, nil
}

// runnerUses records the runner packages a judge reaches: through its
// tests' own imports (every test may kill), or through the runner its
// scripts start (the experiments whose commands they run, and what those
// and the runner's frame use: only the scripts may kill).
func (l *listing) runnerUses(j *judge, p *listedPackage, rel string, commands map[string][]string) error {
	harness := func(rel string) bool { return strings.HasPrefix(rel, "chapters/internal/") }
	from := p.testImports()
	if harness(rel) {
		// The harness's own code starts the runner; only what its tests
		// import can judge (the pictures' test runs the runner itself).
		from = append(append([]string(nil), p.TestImports...), p.XTestImports...)
	}
	direct := l.closure(from, func(r string) bool { return !harness(r) })
	if !harness(rel) {
		direct[rel] = true
	}
	for r := range direct {
		if l.layer(r) == Runner && l.mutated(r) {
			j.uses[r] = reachTests
		}
	}
	cmds, scripts, err := scriptCommands(p.Dir)
	if err != nil || !scripts {
		return err
	}
	// The runner the harness starts: the runner packages the harness imports.
	var roots []string
	for h := range l.closure(p.testImports(), func(string) bool { return true }) {
		if harness(h) && l.byPath[l.module+"/"+h] != nil {
			for _, ip := range l.byPath[l.module+"/"+h].Imports {
				if l.layer(l.rel(ip)) == Runner {
					roots = append(roots, ip)
				}
			}
		}
	}
	reached := l.closure(roots, func(r string) bool {
		names, experiment := commands[r]
		return l.layer(r) == Runner && (!experiment || anyOf(names, cmds))
	})
	for r := range reached {
		if _, ok := j.uses[r]; !ok && l.mutated(r) && !l.testsOnly(r) {
			j.uses[r] = reachScripts
		}
	}
	return nil
}

// mutated reports whether the engine mutates the package folder rel.
func (l *listing) mutated(rel string) bool {
	row, ok := l.tree.Lookup(rel)
	return ok && row.Dir == rel && row.Mutated()
}

// testsOnly reports whether only test packages judge the package folder
// rel (its declaration's TestsOnly).
func (l *listing) testsOnly(rel string) bool {
	row, ok := l.tree.Lookup(rel)
	return ok && row.Dir == rel && row.TestsOnly != ""
}

// anyOf reports whether set holds any of names.
func anyOf(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
