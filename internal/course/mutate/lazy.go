package mutate

// This file names types for the lazy switch: a mutant whose alternatives
// must not be evaluated unless chosen is wrapped in a function literal,
// and a function literal spells its result type. A type of another
// package is named through an alias declared in a file the shared build
// adds to the package (typesFile), which imports what the aliases need:
// the mutated file's own imports stay as they are.

import (
	"crypto/sha256"
	"encoding/hex"
	"go/types"
	"sort"
	"strings"
)

// TypesFileName is the file a shared build adds to a package whose lazy
// mutants need a type of another package.
const TypesFileName = "zz_fencelab_types.go"

// lazyType sets m.typ to Go source that names t inside the package, and
// reports whether t can be named there at all (an unexported type of
// another package cannot: m is then built alone).
func (st *fileState) lazyType(m *Mutant, t types.Type) bool {
	if tup, ok := t.(*types.Tuple); ok {
		parts := make([]string, tup.Len())
		for i := range parts {
			s, ok := st.spell(m, tup.At(i).Type())
			if !ok {
				return false
			}
			parts[i] = s
		}
		m.typ = "(" + strings.Join(parts, ", ") + ")"
		return true
	}
	s, ok := st.spell(m, t)
	m.typ = s
	return ok
}

// spell names one type, through an alias for a type of another package.
func (st *fileState) spell(m *Mutant, t types.Type) (string, bool) {
	if !nameable(t, st.pkg.Types) {
		return "", false
	}
	imports := map[string]string{}
	s := types.TypeString(t, func(p *types.Package) string {
		if p == st.pkg.Types {
			return ""
		}
		alias := "_fencelab_" + strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
				return r
			}
			return '_'
		}, p.Path())
		imports[alias] = p.Path()
		return alias
	})
	if len(imports) == 0 {
		return s, true
	}
	sum := sha256.Sum256([]byte(s))
	name := "_fencelabT" + hex.EncodeToString(sum[:4])
	if m.aliases == nil {
		m.aliases, m.imports = map[string]string{}, map[string]string{}
	}
	m.aliases[name] = s
	for a, p := range imports {
		m.imports[a] = p
	}
	return name, true
}

// nameable reports whether code in package pkg can write t.
func nameable(t types.Type, pkg *types.Package) bool {
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() != types.Invalid && t.Info()&types.IsUntyped == 0
	case *types.Named:
		if o := t.Obj(); o.Pkg() != nil && o.Pkg() != pkg && !o.Exported() {
			return false
		}
		for i := range t.TypeArgs().Len() {
			if !nameable(t.TypeArgs().At(i), pkg) {
				return false
			}
		}
		return true
	case *types.Alias:
		return nameable(types.Unalias(t), pkg)
	case *types.Pointer:
		return nameable(t.Elem(), pkg)
	case *types.Slice:
		return nameable(t.Elem(), pkg)
	case *types.Array:
		return nameable(t.Elem(), pkg)
	case *types.Map:
		return nameable(t.Key(), pkg) && nameable(t.Elem(), pkg)
	case *types.Chan:
		return nameable(t.Elem(), pkg)
	case *types.Interface:
		return t.Empty()
	}
	return false
}

// typesFile returns the source of the types file of package name for the
// mutants ms, or "" if none of them needs it.
func typesFile(name string, ms []*Mutant) string {
	aliases, imports := map[string]string{}, map[string]string{}
	for _, m := range ms {
		for a, s := range m.aliases {
			aliases[a] = s
		}
		for a, p := range m.imports {
			imports[a] = p
		}
	}
	if len(aliases) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("package " + name + "\n\n// Added by the course tooling to a shared build; never part of the tree.\n\nimport (\n")
	for _, a := range sortedKeys(imports) {
		b.WriteString("\t" + a + " " + `"` + imports[a] + `"` + "\n")
	}
	b.WriteString(")\n\n")
	names := sortedKeys(aliases)
	sort.Strings(names)
	for _, a := range names {
		b.WriteString("type " + a + " = " + aliases[a] + "\n")
	}
	return b.String()
}
