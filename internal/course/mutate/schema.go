package mutate

// This file writes mutant schemata: a copy of each mutated file in which
// every mutant is present at once, each behind a switch read from the
// environment, so that one build serves every mutant. With no mutant
// switched on, the copy behaves exactly like the original.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// switchConstants marks as switchable the mutants of each unexported
// package-level constant whose package still compiles with that constant
// declared a variable (it is not used where only a constant may stand,
// such as an array length, and its uses accept its default type). The
// others stay built alone.
func switchConstants(root string, byPkg map[string]*packages.Package, u universe, ms []*Mutant) error {
	groups := map[[2]string][]*Mutant{} // file and const offset -> its mutants
	var order [][2]string
	for _, m := range ms {
		if m.schema || m.constAt == 0 {
			continue
		}
		k := [2]string{m.File, strconv.Itoa(m.constAt)}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], m)
	}
	for _, k := range order {
		group := groups[k]
		pkg := byPkg[group[0].Package]
		abs := filepath.Join(root, filepath.FromSlash(group[0].File))
		src, err := os.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("mutate: %w", err)
		}
		nums := map[*Mutant]int{}
		for i, m := range group {
			nums[m] = i + 1
		}
		s, err := schemaSource(src, group, nums)
		if err != nil {
			return fmt.Errorf("mutate: %w", err)
		}
		if typecheck(pkg, u, map[string]string{abs: s}, variant.SwitchSource(pkg.Name)) != nil {
			continue
		}
		for _, m := range group {
			m.schema = true
		}
	}
	return nil
}

// site is every mutant that replaces one source range.
type site struct {
	start, end int
	mutants    []*Mutant
}

// schemaSource rewrites src with every mutant in ms (all of one file, all
// with schema set and a number in nums) behind its switch.
func schemaSource(src []byte, ms []*Mutant, nums map[*Mutant]int) (string, error) {
	// A constant's value cannot come from a switch, a variable's can:
	// "const" becomes "var  ", as long, so no offset moves.
	src = slices.Clone(src)
	for _, m := range ms {
		if m.constAt == 0 {
			continue
		}
		switch string(src[m.constAt : m.constAt+len("const")]) {
		case "const":
			copy(src[m.constAt:], "var  ")
		case "var  ": // another mutant of the same constant
		default:
			return "", fmt.Errorf("%s: no const keyword at byte %d", m.ID, m.constAt)
		}
	}
	bySpan := map[[2]int]*site{}
	var sites []*site
	for _, m := range ms {
		k := [2]int{m.start, m.end}
		s := bySpan[k]
		if s == nil {
			s = &site{start: m.start, end: m.end}
			bySpan[k] = s
			sites = append(sites, s)
		}
		s.mutants = append(s.mutants, m)
	}
	// Outer ranges first; ranges nest because they are syntax nodes.
	sort.Slice(sites, func(i, j int) bool {
		if sites[i].start != sites[j].start {
			return sites[i].start < sites[j].start
		}
		return sites[i].end > sites[j].end
	})
	var b strings.Builder
	pos, err := emit(&b, src, sites, 0, len(src), nums)
	if err != nil {
		return "", err
	}
	b.Write(src[pos:])
	return b.String(), nil
}

// emit writes src[from:to] with every site inside it switched, and returns
// where it stopped. sites must be sorted outer first.
func emit(b *strings.Builder, src []byte, sites []*site, from, to int, nums map[*Mutant]int) (int, error) {
	pos := from
	for i := 0; i < len(sites); i++ {
		s := sites[i]
		if s.start < pos || s.end > to {
			continue
		}
		b.Write(src[pos:s.start])
		// The sites nested inside s.
		j := i + 1
		for j < len(sites) && sites[j].start < s.end {
			if sites[j].end > s.end {
				return 0, fmt.Errorf("mutants overlap at bytes %d-%d and %d-%d", s.start, s.end, sites[j].start, sites[j].end)
			}
			j++
		}
		var inner strings.Builder
		end, err := emit(&inner, src, sites[i+1:j], s.start, s.end, nums)
		if err != nil {
			return 0, err
		}
		inner.Write(src[end:s.end])
		w, err := wrap(s, inner.String(), nums)
		if err != nil {
			return 0, err
		}
		b.WriteString(w)
		pos = s.end
		i = j - 1
	}
	return pos, nil
}

// wrap puts the mutants of one site around orig, the site's own source
// with every nested site already switched, as their operator's switch
// kind says. Every mutant of a site has the same kind and type.
func wrap(s *site, orig string, nums map[*Mutant]int) (string, error) {
	first := s.mutants[0]
	kind := registry[first.Operator].switched
	ids := make([]string, len(s.mutants))
	alts := make([]string, len(s.mutants))
	for i, m := range s.mutants {
		if registry[m.Operator].switched != kind || m.typ != first.typ {
			return "", fmt.Errorf("%s and %s change the same source but are switched differently", first.ID, m.ID)
		}
		ids[i], alts[i] = strconv.Itoa(nums[m]), m.replacement
	}
	on := func(i int) string { return "_fencelabOn(" + ids[i] + ")" }
	var b strings.Builder
	switch kind {
	case switchDelete:
		// A deferred call inside the if is still deferred to the
		// function's return.
		return "if _fencelabOff(" + strings.Join(ids, ", ") + ") { " + orig + " }", nil
	case switchPick:
		return "_fencelabPick[" + first.typ + "](" + orig + ", []int{" + strings.Join(ids, ", ") + "}, []" + first.typ + "{" + strings.Join(alts, ", ") + "})", nil
	case switchLazy:
		b.WriteString("func() " + first.typ + " { ")
		for i := range alts {
			b.WriteString("if " + on(i) + " { return " + alts[i] + " }; ")
		}
		b.WriteString("return " + orig + " }()")
	case switchStmts:
		for i := range alts {
			b.WriteString("if " + on(i) + " {\n" + alts[i] + "\n} else ")
		}
		b.WriteString("{\n" + orig + "\n}")
	default:
		// A boolean expression: only the chosen branch is evaluated, so
		// side effects happen once, as in the original.
		b.WriteString("(")
		for i := range alts {
			fmt.Fprintf(&b, "%s && (%s) || ", on(i), alts[i])
		}
		fmt.Fprintf(&b, "_fencelabOff(%s) && (%s))", strings.Join(ids, ", "), orig)
	}
	return b.String(), nil
}
