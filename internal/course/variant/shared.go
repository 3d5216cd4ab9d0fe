package variant

// This file builds chapters once with many variants inside: each switched
// file is replaced by its schema (the file with every variant behind a
// switch), each package with switched code gets the switch file, and the
// chapters are compiled into test binaries in one go command.

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Schema is one file of a shared build: the module file it replaces and
// the source that carries its variants behind the switch.
type Schema struct {
	File    string // relative to the module root, slash-separated
	Package string // the package clause's name, for its switch file
	Source  []byte
}

// Chapter is a chapter package to build: its folder's name and import path.
type Chapter struct {
	Name       string // ch02_cas_claim
	ImportPath string
	Dir        string // absolute
}

// Shared is a shared build: a test binary per chapter, every variant in
// it switched off until its number is in SwitchEnv.
type Shared struct {
	bins map[string]Binary
}

// Binary returns chapter's test binary, and false if the build has none.
func (s *Shared) Binary(chapter string) (Binary, bool) {
	if s == nil {
		return Binary{}, false
	}
	b, ok := s.bins[chapter]
	return b, ok
}

// BuildShared writes schemas and a switch file for each package they
// belong to, and builds chapters with them in one `go test -c`. A build
// that fails is an error whose text starts with the compiler's first lines.
func (r *Runner) BuildShared(ctx context.Context, schemas []Schema, chapters []Chapter) (*Shared, error) {
	dir, err := r.TempDir(ctx, "shared-")
	if err != nil {
		return nil, err
	}
	ov := Overlay{}
	switched := map[string]string{} // package folder -> package name
	for _, s := range schemas {
		copyPath := filepath.Join(dir, "schema", strings.ReplaceAll(s.File, "/", "_"))
		if err := WriteFile(copyPath, s.Source); err != nil {
			return nil, err
		}
		ov[filepath.Join(r.Root, filepath.FromSlash(s.File))] = copyPath
		switched[path.Dir(s.File)] = s.Package
	}
	for pkgDir, name := range switched {
		swPath := filepath.Join(dir, "schema", strings.ReplaceAll(pkgDir, "/", "_")+"_switch.go")
		if err := WriteFile(swPath, []byte(SwitchSource(name))); err != nil {
			return nil, err
		}
		ov[filepath.Join(r.Root, filepath.FromSlash(pkgDir), SwitchFileName)] = swPath
	}
	bins, err := r.build(ctx, dir, ov, chapters)
	if err != nil {
		return nil, err
	}
	return &Shared{bins: bins}, nil
}

// BuildAlone builds chapters with the overlay ov alone, in one `go test
// -c`: the way for a variant no switch can reach.
func (r *Runner) BuildAlone(ctx context.Context, ov Overlay, chapters []Chapter) (map[string]Binary, error) {
	dir, err := r.TempDir(ctx, "alone-")
	if err != nil {
		return nil, err
	}
	return r.build(ctx, dir, ov, chapters)
}

// build compiles chapters' test binaries into dir/bin with overlay ov.
func (r *Runner) build(ctx context.Context, dir string, ov Overlay, chapters []Chapter) (map[string]Binary, error) {
	args := []string{"test", "-c", "-vet=off", "-o", filepath.Join(dir, "bin") + string(filepath.Separator)}
	if name, err := ov.Write(dir); err != nil {
		return nil, err
	} else if name != "" {
		args = append(args, "-overlay", name)
	}
	for _, ch := range chapters {
		args = append(args, ch.ImportPath)
	}
	if out, err := r.command(ctx, r.Root, r.goCmd(), args...).CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("build: %w", ctx.Err())
		}
		return nil, fmt.Errorf("%s (%w)", ov.Renamer(r.Root).Replace(FirstLines(string(out), 10, "\n")), err)
	}
	bins := map[string]Binary{}
	for _, ch := range chapters {
		bin := filepath.Join(dir, "bin", path.Base(ch.ImportPath)+".test")
		if _, err := os.Stat(bin); err != nil {
			return nil, fmt.Errorf("the build made no test binary for %s: %w", ch.Name, err)
		}
		bins[ch.Name] = Binary{Path: bin, ImportPath: ch.ImportPath, Dir: ch.Dir}
	}
	return bins, nil
}
