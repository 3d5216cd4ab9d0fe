package drill

// This file is the `drill mutate` subcommand: the chapters measured against
// mistakes nobody chose (see package mutate).

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/fencelab/fencelab/internal/course/mutate"
)

// mutate runs `drill mutate [PACKAGE...] [--json] [--survivors] [-v] [--jobs N]`.
func (t *Tool) mutate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON document instead of progress and a table")
	survivors := fs.Bool("survivors", false, "list only the mutants that survived (JSON: only those in mutants)")
	verbose := fs.Bool("v", false, "print every mutant's verdict as it comes, not only the survivors")
	var jobs int
	jobsFlag.Var(fs, &jobs, "run `N` test processes at once (0, the default: one more than the number of CPUs)")
	names, err := parseArgs(fs, args, "[PACKAGE...] [--json] [--survivors] [-v] [--jobs N]",
		"Mutation testing. Generates mutants of the mechanism packages (internal/<concept>) from\n"+
			"their Go and their SQL, runs the chapter tests that use each package against every mutant,\n"+
			"and reports what the tests kill. A survivor is a property no test states, unless\n"+
			mutate.ExcuseDir+"/<package>.txt excuses it with a reason. Exit status 0 only if none survives.\n"+
			"PACKAGE is a mechanism package: mailbox, or internal/mailbox.\n\n"+
			"Go mutants: a comparison flipped, one operand of && or || dropped, a ! dropped, an error\n"+
			"check or a RowsAffected check deleted, an integer c made c+1 and c-1 (not one returned\n"+
			"beside an error, which no caller reads), a call statement deleted. SQL mutants, in the\n"+
			"statements the code sends: a WHERE conjunct dropped, a comparison flipped, a SET\n"+
			"assignment dropped, BEGIN IMMEDIATE made BEGIN.", t.Stderr)
	if err != nil {
		return err
	}
	if err := jobsFlag.Check(jobs); err != nil {
		return usagef("%v", err)
	}
	root, err := t.root()
	if err != nil {
		return err
	}
	all, err := mutate.MechanismPackages(root)
	if err != nil {
		return err
	}
	pkgs, err := pickPackages(all, names)
	if err != nil {
		return err
	}
	r := t.runner(root)
	if jobs > 0 {
		r.Jobs = jobs
	}
	defer r.Close()
	cfg := mutate.Config{Runner: r, Packages: pkgs}
	if !*asJSON {
		cfg.Log = t.Stdout
		var mu sync.Mutex
		done := 0
		cfg.OnResult = func(r mutate.Result) {
			mu.Lock()
			defer mu.Unlock()
			done++
			if *verbose || r.Verdict == mutate.Survived {
				fmt.Fprintf(t.Stdout, "%5d  %-8s %s\n", done, r.Verdict, mutantLine(r))
			} else if done%50 == 0 {
				fmt.Fprintf(t.Stdout, "%5d  mutants judged\n", done)
			}
		}
	}
	rep, err := mutate.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if *survivors {
		rep.Mutants = slices.DeleteFunc(rep.Mutants, func(r mutate.Result) bool { return r.Verdict != mutate.Survived })
	}
	if *asJSON {
		if err := rep.WriteJSON(t.Stdout); err != nil {
			return err
		}
	} else {
		writeMutateReport(t.Stdout, rep, *survivors)
	}
	if !rep.OK() {
		return errReported
	}
	return nil
}

// mutantLine shows one verdict: the mutant, its diff, and what killed it
// or why it is excused.
func mutantLine(r mutate.Result) string {
	s := r.ID + "\n         " + r.Diff
	switch {
	case r.KilledBy != "":
		s += "\n         killed by " + r.KilledBy
	case r.Reason != "":
		s += "\n         " + r.Reason
	}
	return s
}

// writeMutateReport ends the human output: the survivors, the problems,
// the table and one line of verdict.
func writeMutateReport(w io.Writer, rep *mutate.Report, onlySurvivors bool) {
	if onlySurvivors {
		for _, r := range rep.Mutants {
			fmt.Fprintf(w, "survived %s\n", mutantLine(r))
		}
	}
	fmt.Fprintln(w)
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	rep.WriteTable(w)
	total := rep.Total()
	fmt.Fprintf(w, "\ndrill mutate: %d mutants, %d killed, %d excused, %d survived, %d invalid; kill rate %.1f%% of the valid ones; %.1fs\n",
		total.Mutants, total.Killed, total.Excused, total.Survived, total.Invalid, total.KillRate, rep.Seconds)
	if rep.Survived > 0 {
		fmt.Fprintf(w, "each survivor is a property no chapter test states: write the test in the chapter that teaches it, or excuse it in %s/<package>.txt with its reason\n", mutate.ExcuseDir)
	}
}

// pickPackages maps the PACKAGE arguments to mechanism package folders.
func pickPackages(all, names []string) ([]string, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []string
	for _, n := range names {
		n = strings.TrimSuffix(strings.TrimPrefix(n, "./"), "/")
		if !strings.Contains(n, "/") {
			n = "internal/" + n
		}
		if !slices.Contains(all, n) {
			short := make([]string, len(all))
			for i, p := range all {
				short[i] = path.Base(p)
			}
			return nil, usagef("unknown package %q: want a mechanism package, one of %s", n, strings.Join(short, ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}
