package mutate

// This file sums the verdicts up per package and writes them for people
// (a table) and for machines (JSON).

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"
)

// Report is a whole measurement; its JSON form is what
// `drill mutate --json` prints.
type Report struct {
	Mutants  []Result  `json:"mutants"`
	Packages []Summary `json:"packages"`
	Survived int       `json:"survived"` // unexcused survivors: the number that must be 0
	// Problems are excuses that no longer fit: an excused mutant that is
	// killed now, an excuse naming no mutant, a malformed line.
	Problems []string `json:"problems"`
	Seconds  float64  `json:"seconds"`
}

// Summary counts one package's verdicts.
type Summary struct {
	Package  string  `json:"package"`
	Mutants  int     `json:"mutants"`
	Killed   int     `json:"killed"`
	Excused  int     `json:"excused"`
	Survived int     `json:"survived"`
	Invalid  int     `json:"invalid"`
	KillRate float64 `json:"kill_rate"` // killed over valid mutants, in percent
}

// OK reports whether the measurement passes: no survivor, no problem.
func (r *Report) OK() bool { return r.Survived == 0 && len(r.Problems) == 0 }

// finish fills in the summaries and the excuse problems.
func (r *Report) finish(results []Result, excuses map[string]Excuse, all []*Mutant) {
	r.Mutants = results
	byPkg := map[string]*Summary{}
	var order []string
	measured := map[string]bool{} // package base names, as excuse IDs start
	for _, res := range results {
		s := byPkg[res.Package]
		if s == nil {
			s = &Summary{Package: res.Package}
			byPkg[res.Package] = s
			order = append(order, res.Package)
		}
		measured[path.Base(res.Package)] = true
		s.Mutants++
		switch res.Verdict {
		case Killed:
			s.Killed++
		case Excused:
			s.Excused++
		case Survived:
			s.Survived++
			r.Survived++
		case Invalid:
			s.Invalid++
		}
	}
	for _, p := range order {
		s := byPkg[p]
		if valid := s.Mutants - s.Invalid; valid > 0 {
			s.KillRate = float64(int(1000*float64(s.Killed)/float64(valid)+0.5)) / 10
		}
		r.Packages = append(r.Packages, *s)
	}
	verdict := map[string]Verdict{}
	for _, res := range results {
		verdict[res.ID] = res.Verdict
	}
	for _, id := range sortedKeys(excuses) {
		pkg, _, _ := strings.Cut(id, ":")
		if !measured[pkg] {
			continue // a package this run did not mutate
		}
		e := excuses[id]
		switch v, ok := verdict[id]; {
		case !ok:
			r.Problems = append(r.Problems, fmt.Sprintf("%s: %s is no longer a mutant of the tree: remove its excuse", e.Where(), id))
		case v == Killed:
			r.Problems = append(r.Problems, fmt.Sprintf("%s: %s is killed now: remove its excuse", e.Where(), id))
		}
	}
	if r.Mutants == nil {
		r.Mutants = []Result{}
	}
	if r.Packages == nil {
		r.Packages = []Summary{}
	}
	if r.Problems == nil {
		r.Problems = []string{}
	}
}

// Total sums every package.
func (r *Report) Total() Summary {
	t := Summary{Package: "total"}
	for _, s := range r.Packages {
		t.Mutants += s.Mutants
		t.Killed += s.Killed
		t.Excused += s.Excused
		t.Survived += s.Survived
		t.Invalid += s.Invalid
	}
	if valid := t.Mutants - t.Invalid; valid > 0 {
		t.KillRate = float64(int(1000*float64(t.Killed)/float64(valid)+0.5)) / 10
	}
	return t
}

// WriteTable writes the per-package table and its total.
func (r *Report) WriteTable(w io.Writer) error {
	width := len("package")
	for _, s := range r.Packages {
		width = max(width, len(s.Package))
	}
	row := "%-*s  %7v  %6v  %7v  %8v  %7v  %9v\n"
	if _, err := fmt.Fprintf(w, row, width, "package", "mutants", "killed", "excused", "survived", "invalid", "kill rate"); err != nil {
		return err
	}
	for _, s := range append(r.Packages, r.Total()) {
		rate := fmt.Sprintf("%.1f%%", s.KillRate)
		if _, err := fmt.Fprintf(w, row, width, s.Package, s.Mutants, s.Killed, s.Excused, s.Survived, s.Invalid, rate); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes the report as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
