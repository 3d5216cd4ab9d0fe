package exercise

// This file finds every chapter a change to the mechanism can break: the
// chapters whose tests import, directly or through other packages of the
// mechanism, the package of a changed file. A repair graded by its own
// chapter alone could break a guarantee another chapter proves (a
// Complete that also checks the lease passes chapter 2 and fails chapter
// 3), so verify runs them all. The runner and the course tooling are not
// followed: every chapter's scripts reach the whole mechanism through the
// runner, and following them would make every change reach every chapter.

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/internal/course/weakening"
	"golang.org/x/mod/modfile"
)

// notFollowed are the folders of the module whose imports reach is not
// followed through.
var notFollowed = []string{"internal/runner", "internal/course", "tools"}

// chaptersReaching returns the chapter folders (names, sorted) whose
// tests reach the package of one of files (module-relative paths).
func chaptersReaching(root string, chapters []string, files []string) ([]string, error) {
	mod, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	targets := map[string]bool{}
	for _, f := range files {
		targets[path.Dir(f)] = true
	}
	g := &importGraph{root: root, mod: mod, imports: map[string][]string{}}
	var out []string
	for _, ch := range chapters {
		if g.reaches(path.Join(weakening.ChaptersDir, ch), targets, map[string]bool{}) {
			out = append(out, ch)
		}
	}
	sort.Strings(out)
	return out, nil
}

// importGraph reads the module's packages' imports, once each.
type importGraph struct {
	root, mod string
	imports   map[string][]string // package folder -> module folders it imports
}

// reaches reports whether the package in dir, or one it imports, is in
// targets.
func (g *importGraph) reaches(dir string, targets, seen map[string]bool) bool {
	if targets[dir] {
		return true
	}
	if seen[dir] {
		return false
	}
	seen[dir] = true
	for _, imp := range g.importsOf(dir) {
		if g.reaches(imp, targets, seen) {
			return true
		}
	}
	return false
}

// importsOf returns the module folders dir's Go files import, tests
// included, the folders not followed aside.
func (g *importGraph) importsOf(dir string) []string {
	if imps, ok := g.imports[dir]; ok {
		return imps
	}
	var imps []string
	paths, _ := filepath.Glob(filepath.Join(g.root, filepath.FromSlash(dir), "*.go"))
	fset := token.NewFileSet()
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			continue // a file that does not parse is the compiler's to report
		}
		for _, spec := range f.Imports {
			ip, _ := strconv.Unquote(spec.Path.Value)
			rel, ok := strings.CutPrefix(ip, g.mod+"/")
			if !ok || followedNot(rel) {
				continue
			}
			imps = append(imps, rel)
		}
	}
	g.imports[dir] = imps
	return imps
}

// followedNot reports whether rel is under a folder not followed.
func followedNot(rel string) bool {
	for _, n := range notFollowed {
		if rel == n || strings.HasPrefix(rel, n+"/") {
			return true
		}
	}
	return false
}

// modulePath reads the module path from root's go.mod.
func modulePath(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	return modfile.ModulePath(data), nil
}
