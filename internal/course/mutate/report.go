package mutate

// This file sums the verdicts up per package and per operator and writes
// them for people (tables) and for machines (JSON).

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// Report is a whole measurement; its JSON form is what
// `drill mutate --json` prints.
type Report struct {
	Mutants   []Result  `json:"mutants"`
	Packages  []Summary `json:"packages"`
	Operators []Summary `json:"operators"`
	Survived  int       `json:"survived"` // unexcused survivors: the number that must be 0
	// Reused counts the verdicts taken from the verdict files, their keys
	// unchanged; Judged those judged in this run.
	Reused int `json:"reused"`
	Judged int `json:"judged"`
	// Sample is what --sample re-judged; nil without it.
	Sample *SampleReport `json:"sample,omitempty"`
	// Problems are excuses that no longer fit (an excused mutant that is
	// killed now, an excuse naming no mutant, a malformed line) and
	// sampled verdicts that differ from the stored ones.
	Problems []string `json:"problems"`
	Seconds  float64  `json:"seconds"`
}

// Summary counts the verdicts of one package, or of one operator.
type Summary struct {
	Package  string   `json:"package,omitempty"`
	Operator Operator `json:"operator,omitempty"`
	Mutants  int      `json:"mutants"`
	Killed   int      `json:"killed"`
	Excused  int      `json:"excused"`
	Survived int      `json:"survived"`
	Invalid  int      `json:"invalid"`
	KillRate float64  `json:"kill_rate"` // killed over valid mutants, in percent
}

// OK reports whether the measurement passes: no survivor, no problem.
func (r *Report) OK() bool { return r.Survived == 0 && len(r.Problems) == 0 }

// finish fills in the summaries and the excuse problems.
func (r *Report) finish(results []Result, excuses map[string]Excuse) {
	r.Mutants = results
	r.Packages = summarize(results, func(res Result) string { return res.Package }, nil)
	r.Operators = summarize(results, func(res Result) string { return string(res.Operator) }, Operators())
	for i := range r.Operators {
		r.Operators[i].Operator, r.Operators[i].Package = Operator(r.Operators[i].Package), ""
	}
	for _, res := range results {
		if res.Verdict == Survived {
			r.Survived++
		}
		if res.Reused {
			r.Reused++
		} else if res.Verdict != Invalid {
			r.Judged++
		}
	}
	r.Problems = append(r.Problems, excuseProblems(results, excuses)...)
	if r.Mutants == nil {
		r.Mutants = []Result{}
	}
	if r.Problems == nil {
		r.Problems = []string{}
	}
}

// summarize counts results grouped by what by says: first the groups
// order names, each even if empty, then the others as first seen.
func summarize(results []Result, by func(Result) string, order []Operator) []Summary {
	groups := map[string]*Summary{}
	var names []string
	for _, o := range order {
		names = append(names, string(o))
		groups[string(o)] = &Summary{Package: string(o)} // listed even if it made no mutant
	}
	for _, res := range results {
		name := by(res)
		s := groups[name]
		if s == nil {
			s = &Summary{Package: name}
			groups[name] = s
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		s.count(res.Verdict)
	}
	out := []Summary{}
	for _, n := range names {
		if s := groups[n]; s != nil {
			s.rate()
			out = append(out, *s)
		}
	}
	return out
}

// name is the package's folder or the operator's name.
func (s Summary) name() string {
	if s.Operator != "" {
		return string(s.Operator)
	}
	return s.Package
}

// count adds one verdict.
func (s *Summary) count(v Verdict) {
	s.Mutants++
	switch v {
	case Killed:
		s.Killed++
	case Excused:
		s.Excused++
	case Survived:
		s.Survived++
	case Invalid:
		s.Invalid++
	}
}

// rate sets the kill rate: killed over valid mutants, in percent, to one
// decimal.
func (s *Summary) rate() {
	if valid := s.Mutants - s.Invalid; valid > 0 {
		s.KillRate = float64(int(1000*float64(s.Killed)/float64(valid)+0.5)) / 10
	}
}

// excuseProblems lists the excuses of the measured packages that no
// longer fit: one naming no mutant, one for a mutant killed now.
func excuseProblems(results []Result, excuses map[string]Excuse) []string {
	measured := map[string]bool{} // package base names, as excuse IDs start
	verdict := map[string]Verdict{}
	for _, res := range results {
		measured[path.Base(res.Package)] = true
		verdict[res.ID] = res.Verdict
	}
	var out []string
	for _, id := range sortedKeys(excuses) {
		pkg, _, _ := strings.Cut(id, ":")
		if !measured[pkg] {
			continue // a package this run did not mutate
		}
		e := excuses[id]
		switch v, ok := verdict[id]; {
		case !ok:
			out = append(out, fmt.Sprintf("%s: %s is no longer a mutant of the tree: remove its excuse", e.Where(), id))
		case v == Killed:
			out = append(out, fmt.Sprintf("%s: %s is killed now: remove its excuse", e.Where(), id))
		}
	}
	return out
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
	t.rate()
	return t
}

// WriteTable writes the per-package table and its total, then the
// per-operator table.
func (r *Report) WriteTable(w io.Writer) error {
	total := r.Total()
	if err := writeSummaries(w, "package", append(r.Packages, total)); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return writeSummaries(w, "operator", append(r.Operators, total))
}

// writeSummaries writes one table of summaries, its first column headed
// by head.
func writeSummaries(w io.Writer, head string, rows []Summary) error {
	width := len(head)
	for _, s := range rows {
		width = max(width, len(s.name()))
	}
	row := "%-*s  %7v  %6v  %7v  %8v  %7v  %9v\n"
	if _, err := fmt.Fprintf(w, row, width, head, "mutants", "killed", "excused", "survived", "invalid", "kill rate"); err != nil {
		return err
	}
	for _, s := range rows {
		rate := fmt.Sprintf("%.1f%%", s.KillRate)
		if _, err := fmt.Fprintf(w, row, width, s.name(), s.Mutants, s.Killed, s.Excused, s.Survived, s.Invalid, rate); err != nil {
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
