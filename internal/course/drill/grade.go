package drill

// This file is `drill grade`: every saved solution verified again from the
// shipped code, in a scratch copy, the way a fork's CI grades a learner.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
)

// gradeReport is what `drill grade --json` prints.
type gradeReport struct {
	Exercises []exercise.GradeResult `json:"exercises"`
	Verified  int                    `json:"verified"`
	Total     int                    `json:"total"`
}

// grade runs `drill grade [NAME...] [--json]`.
func (t *Tool) grade(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, `print {"exercises": [{"name", "chapter", "kind", "verdict", "detail"}], "verified", "total"}`)
	names, err := parseArgs(fs, args, "[NAME...] [--json]",
		"Grades you from your saved solutions alone (chapters/*/solutions/): in a scratch copy of\n"+
			"the repository with the shipped code, each exercise is started, your solution applied\n"+
			"and verified again. Each is verified, failed (with the first reason) or missing. No\n"+
			"file you write can change the count; this is what your fork's CI runs. Exit status 1\n"+
			"if a saved solution fails.", t.Stderr)
	if err != nil {
		return err
	}
	set, err := t.exerciseSet()
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, ok := set.Lookup(n); !ok {
			return t.unknownExercise(set, n)
		}
	}
	opts := exercise.GradeOptions{Only: names, Runner: func(root string) *variant.Runner { return t.runner(root) }}
	if !*asJSON {
		fmt.Fprintf(t.Stdout, "drill grade: verifying every saved solution from the shipped code, in a scratch copy\n")
		opts.OnGraded = func(g exercise.GradeResult) { fmt.Fprintln(t.Stdout, gradeLine(g)) }
	}
	results, err := exercise.Grade(ctx, set, opts)
	if err != nil {
		return err
	}
	rep := gradeReport{Exercises: results, Total: len(results)}
	failed := 0
	for _, g := range results {
		switch g.Verdict {
		case exercise.Verified:
			rep.Verified++
		case exercise.Failed:
			failed++
		}
	}
	if *asJSON {
		err = writeJSON(t.Stdout, rep)
	} else {
		fmt.Fprintf(t.Stdout, "\n%d of %d exercises verified from their saved solutions; %d failed\n", rep.Verified, rep.Total, failed)
	}
	if err != nil {
		return err
	}
	if t.SummaryFile != "" {
		if err := appendGrade(t.SummaryFile, rep); err != nil {
			fmt.Fprintf(t.Stderr, "drill grade: job summary: %v\n", err)
		}
	}
	if failed > 0 {
		return errReported
	}
	return nil
}

// gradeLine is the line printed as one grade arrives.
func gradeLine(g exercise.GradeResult) string {
	line := fmt.Sprintf("%-9s %-28s %-5s %s (%.1fs)", g.Verdict, g.Name, g.Kind, g.Chapter, g.Seconds)
	if g.Verdict == exercise.Failed {
		line += ": " + g.Detail
	}
	return line
}

// appendGrade appends rep as Markdown to file: the fork's job summary.
func appendGrade(file string, rep gradeReport) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	writeGradeMarkdown(f, rep)
	return f.Close()
}

// writeGradeMarkdown writes rep as a Markdown table.
func writeGradeMarkdown(w io.Writer, rep gradeReport) {
	fmt.Fprintf(w, "## Exercises verified from saved solutions\n\n%d of %d verified\n\n", rep.Verified, rep.Total)
	fmt.Fprintf(w, "| exercise | chapter | kind | verdict | detail |\n|---|---|---|---|---|\n")
	for _, g := range rep.Exercises {
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", g.Name, g.Chapter, g.Kind, g.Verdict, mdCell(g.Detail))
	}
}
