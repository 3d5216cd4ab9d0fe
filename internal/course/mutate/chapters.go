package mutate

// This file decides which chapters can kill a mutant of a package: those
// whose tests use the package, directly or through another mechanism
// package or a mechanism's test helper. Every chapter reaches every package
// through the runner its scripts start, so the runner and the course
// tooling are not followed: a chapter about sessions does not run for a
// mailbox mutant.

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

// chapter is one chapter package and the mechanism packages its tests use.
type chapter struct {
	variant.Chapter
	Uses map[string]bool // mechanism package folders (internal/mailbox) its tests reach
}

// listedPackage is what `go list -json` says of one package.
type listedPackage struct {
	ImportPath   string
	Dir          string
	Imports      []string
	TestImports  []string
	XTestImports []string
	TestGoFiles  []string
	XTestGoFiles []string
}

// findChapters lists the chapter packages of r's module, whose path is
// module, and what they use.
func findChapters(ctx context.Context, r *variant.Runner, module string) ([]*chapter, error) {
	cmd, err := r.GoCommand(ctx, "list", "-e", "-json=ImportPath,Dir,Imports,TestImports,XTestImports,TestGoFiles,XTestGoFiles", "./chapters/...", "./internal/...")
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	byPath := map[string]*listedPackage{}
	var chapterPkgs []*listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		byPath[p.ImportPath] = &p
		// A package under chapters/ without tests (chapter 9's model) has
		// no test binary to run: it can kill no mutant.
		// The chapters' own harness (chapters/internal) is not a chapter.
		if strings.HasPrefix(p.ImportPath, module+"/chapters/") && !strings.HasPrefix(p.ImportPath, module+"/chapters/internal/") &&
			len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 {
			chapterPkgs = append(chapterPkgs, &p)
		}
	}
	internal := module + "/internal/"
	// folder returns the mechanism package a path belongs to (a helper
	// such as internal/mailbox/mailboxtest belongs to internal/mailbox),
	// or "" for anything else.
	folder := func(p string) string {
		if !strings.HasPrefix(p, internal) {
			return ""
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(p, internal), "/")
		if notMechanism[first] {
			return ""
		}
		return "internal/" + first
	}
	var chs []*chapter
	for _, p := range chapterPkgs {
		ch := &chapter{Chapter: variant.Chapter{Name: path.Base(p.ImportPath), ImportPath: p.ImportPath, Dir: p.Dir}, Uses: map[string]bool{}}
		seen := map[string]bool{}
		var visit func(string)
		visit = func(imp string) {
			if seen[imp] || folder(imp) == "" {
				return
			}
			seen[imp] = true
			ch.Uses[folder(imp)] = true
			if lp := byPath[imp]; lp != nil {
				for _, next := range lp.Imports {
					visit(next)
				}
			}
		}
		for _, list := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
			for _, imp := range list {
				visit(imp)
			}
		}
		chs = append(chs, ch)
	}
	sort.Slice(chs, func(i, j int) bool { return chs[i].Name < chs[j].Name })
	return chs, nil
}
