package mutate

// This file loads the packages to mutate (layers.go declares which they
// are), parsed and type-checked from source.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/tools/go/packages"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// errLoad is wrapped by every failure to load or type-check a package.
var errLoad = errors.New("mutate: cannot load package")

// load parses and type-checks the package folders dirs (relative to root).
// It also returns the universe of every package they import, for type-checking
// mutated copies.
func load(ctx context.Context, root string, dirs []string) (pkgs []*packages.Package, u universe, err error) {
	patterns := make([]string, len(dirs))
	for i, d := range dirs {
		patterns[i] = "./" + d
	}
	// The packages asked for are parsed and type-checked from source; their
	// dependencies come from the go command's export data, which is much
	// cheaper than type-checking SQLite from source.
	cfg := &packages.Config{
		Context: ctx,
		Dir:     root,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
	}
	pkgs, err = packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errLoad, err)
	}
	// The switch file's imports, loaded whole: a package met only through
	// another's export data may hold just the part that package uses.
	std, err := packages.Load(&packages.Config{Context: ctx, Dir: root, Mode: packages.NeedName | packages.NeedTypes}, variant.Imports...)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errLoad, err)
	}
	u = universe{}
	for _, p := range append(pkgs, std...) {
		if p.Types != nil {
			u.add(p.Types)
		}
	}
	var errs []error
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("%s: %s", p.PkgPath, e.Msg))
		}
		if len(p.GoFiles) > 0 {
			p.Dir = filepath.Dir(p.GoFiles[0])
		}
	}
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("%w: %w", errLoad, errors.Join(errs...))
	}
	return pkgs, u, nil
}
