package mutate

// This file writes mutant schemata: a copy of each mutated file in which
// every mutant is present at once, each behind a switch read from the
// environment, so that one build serves every mutant. With no mutant
// switched on, the copy behaves exactly like the original.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// site is every mutant that replaces one source range.
type site struct {
	start, end int
	mutants    []*Mutant
}

// schemaSource rewrites src with every mutant in ms (all of one file, all
// with schema set and a number in nums) behind its switch.
func schemaSource(src []byte, ms []*Mutant, nums map[*Mutant]int) (string, error) {
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
		b.WriteString(wrap(s, inner.String(), nums))
		pos = s.end
		i = j - 1
	}
	return pos, nil
}

// wrap puts the mutants of one site around orig, the site's own source
// with every nested site already switched.
func wrap(s *site, orig string, nums map[*Mutant]int) string {
	ids := make([]string, len(s.mutants))
	for i, m := range s.mutants {
		ids[i] = strconv.Itoa(nums[m])
	}
	first := s.mutants[0]
	switch {
	case first.stmt:
		// Deleting a statement: it runs unless its mutant is on. (A
		// deferred call inside the if is still deferred to the function's
		// return.)
		return "if _fencelabOff(" + strings.Join(ids, ", ") + ") { " + orig + " }"
	case first.Operator == IntConst:
		alts := make([]string, len(s.mutants))
		for i, m := range s.mutants {
			alts[i] = m.replacement
		}
		return "_fencelabPick[" + first.typ + "](" + orig + ", []int{" + strings.Join(ids, ", ") + "}, []" + first.typ + "{" + strings.Join(alts, ", ") + "})"
	case first.Operator.isSQL():
		alts := make([]string, len(s.mutants))
		for i, m := range s.mutants {
			alts[i] = m.replacement
		}
		return "_fencelabPick(" + orig + ", []int{" + strings.Join(ids, ", ") + "}, []string{" + strings.Join(alts, ", ") + "})"
	}
	// A boolean expression: only the chosen branch is evaluated, so side
	// effects happen once, as in the original.
	var b strings.Builder
	b.WriteString("(")
	for i, m := range s.mutants {
		fmt.Fprintf(&b, "_fencelabOn(%s) && (%s) || ", ids[i], m.replacement)
	}
	fmt.Fprintf(&b, "_fencelabOff(%s) && (%s))", strings.Join(ids, ", "), orig)
	return b.String()
}
