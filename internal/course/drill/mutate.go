package drill

// This file is the `drill mutate` subcommand: the chapters measured against
// mistakes nobody chose (see package mutate).

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/fencelab/fencelab/internal/course/mutate"
)

// mutate runs `drill mutate [PACKAGE...] [--json] [--survivors] [-v] [--jobs N]
// [--full] [--sample N [--seed S]]`.
func (t *Tool) mutate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON document instead of progress and a table")
	survivors := fs.Bool("survivors", false, "list only the mutants that survived (JSON: only those in mutants)")
	verbose := fs.Bool("v", false, "print every mutant's verdict as it comes, not only the survivors")
	var jobs int
	jobsFlag.Var(fs, &jobs, "run `N` test processes at once (0, the default: one more than the number of CPUs)")
	reuse := addReuseFlags(fs, "mutant")
	names, err := parseArgs(fs, args, "[PACKAGE...] [--json] [--survivors] [-v] [--jobs N] [--full] [--sample N [--seed S]]", mutateHelp(), t.Stderr)
	if err != nil {
		return err
	}
	if err := jobsFlag.Check(jobs); err != nil {
		return usagef("%v", err)
	}
	if err := reuse.check(); err != nil {
		return err
	}
	root, err := t.root()
	if err != nil {
		return err
	}
	unlock, err := t.lockTree(root, "mutate")
	if err != nil {
		return err
	}
	defer unlock()
	// A started exercise or an applied weakening would judge every mutant
	// against a tree that is red on purpose, and rewrite its verdicts.
	if err := treeAsShipped(root); err != nil {
		return err
	}
	tree, err := mutate.TreeOf(root)
	if err != nil {
		return err
	}
	pkgs, err := pickPackages(tree, names)
	if err != nil {
		return err
	}
	r := t.runner(root)
	if jobs > 0 {
		r.Jobs = jobs
	}
	defer r.Close()
	cfg := mutate.Config{Runner: r, Tree: tree, Packages: pkgs, Full: *reuse.full, Sample: reuse.sample, Seed: uint64(reuse.seed)}
	if !*asJSON {
		cfg.Log, cfg.OnResult = t.Stdout, progress(t.Stdout, *verbose)
	}
	before := treeFiles(root)
	rep, err := mutate.Run(ctx, cfg)
	removed, appeared := sweepLitter(root, before, mutate.VerdictDir)
	for _, f := range removed {
		fmt.Fprintf(t.Stderr, "drill mutate: removed %s, a database a judge's test left in the tree\n", f)
	}
	for _, f := range appeared {
		fmt.Fprintf(t.Stderr, "drill mutate: %s appeared in the tree during the run; it is not a database, so it was left: remove it if a test left it\n", f)
	}
	if err != nil {
		return err
	}
	return t.printMutate(rep, *asJSON, *survivors)
}

// mutateHelp is mutate's summary for -h: what it does, and every operator
// from the engine's registry.
func mutateHelp() string {
	var b strings.Builder
	b.WriteString("Mutation testing. Generates mutants of the packages the engine's declaration names\n" +
		"(the mechanism, the runner, and drill's exit statuses) from their Go and their SQL, runs the\n" +
		"tests that reach each package against every mutant, and reports what the tests kill. A\n" +
		"survivor is a property no test states, unless " + mutate.ExcuseDir + "/<package>.txt\n" +
		"excuses it with a reason. Exit status 0 only if none survives.\n" +
		"Each verdict is stored in " + mutate.VerdictDir + "/<package>.txt under a key (the mutant,\n" +
		"its function's source, the test side of its judges, its excuse) and reused while the key\n" +
		"holds; --full judges everything again, --sample N re-judges N reused verdicts at random.\n" +
		"PACKAGE is a mutated package: mailbox, internal/mailbox, runner/cli.\n\nOperators:\n")
	for _, op := range mutate.Operators() {
		fmt.Fprintf(&b, "  %-15s %s\n", op, op.Doc())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// progress returns what prints each verdict as it comes: every one with
// verbose, else the survivors and a count every 50.
func progress(w io.Writer, verbose bool) func(mutate.Result) {
	var mu sync.Mutex
	done := 0
	return func(r mutate.Result) {
		mu.Lock()
		defer mu.Unlock()
		done++
		if verbose || r.Verdict == mutate.Survived {
			fmt.Fprintf(w, "%5d  %-8s %s\n", done, r.Verdict, mutantLine(r))
		} else if done%50 == 0 {
			fmt.Fprintf(w, "%5d  mutants judged\n", done)
		}
	}
}

// printMutate prints the report as JSON or for people, and says whether
// the measurement passed.
func (t *Tool) printMutate(rep *mutate.Report, asJSON, survivors bool) error {
	if survivors {
		rep.Mutants = slices.DeleteFunc(rep.Mutants, func(r mutate.Result) bool { return r.Verdict != mutate.Survived })
	}
	if asJSON {
		if err := rep.WriteJSON(t.Stdout); err != nil {
			return err
		}
	} else {
		writeMutateReport(t.Stdout, rep, survivors)
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
	fmt.Fprintf(w, "\ndrill mutate: %d mutants, %d killed, %d excused, %d survived, %d invalid; kill rate %.1f%% of the valid ones; %d verdicts reused, %d judged; %.1fs\n",
		total.Mutants, total.Killed, total.Excused, total.Survived, total.Invalid, total.KillRate, rep.Reused, rep.Judged, rep.Seconds)
	if s := rep.Sample; s != nil {
		fmt.Fprintf(w, "sample: %d reused verdicts judged again (seed %d, --seed %d repeats it), %d differ\n", s.Size, s.Seed, s.Seed, len(s.Differ))
	}
	if rep.Survived > 0 {
		fmt.Fprintf(w, "each survivor is a property no chapter test states: write the test in the chapter that teaches it, or excuse it in %s/<package>.txt with its reason\n", mutate.ExcuseDir)
	}
}

// pickPackages maps the PACKAGE arguments to the package folders the
// declaration mutates: mailbox, internal/mailbox, runner/cli.
func pickPackages(tree mutate.Tree, names []string) ([]string, error) {
	all := tree.Dirs(mutate.Mechanism, mutate.Runner, mutate.Tooling)
	if len(names) == 0 {
		return all, nil
	}
	var out []string
	for _, n := range names {
		n = strings.TrimSuffix(strings.TrimPrefix(n, "./"), "/")
		if !strings.HasPrefix(n, "internal/") {
			n = "internal/" + n
		}
		if !slices.Contains(all, n) {
			return nil, usagef("unknown package %q: want %s", n, packageChoices(tree))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// packageChoices names the packages a PACKAGE argument may be, layer by
// layer.
func packageChoices(tree mutate.Tree) string {
	var parts []string
	for _, l := range []struct {
		layer mutate.Layer
		what  string
	}{{mutate.Mechanism, "a mechanism package"}, {mutate.Runner, "a runner package"}, {mutate.Tooling, "drill's"}} {
		dirs := tree.Dirs(l.layer)
		if len(dirs) == 0 {
			continue
		}
		short := make([]string, len(dirs))
		for i, d := range dirs {
			short[i] = strings.TrimPrefix(d, "internal/")
		}
		parts = append(parts, l.what+", one of "+strings.Join(short, ", "))
	}
	return strings.Join(parts, ", or ")
}
