package drill

// This file is `drill progress`: the learner's record per chapter, as a
// table, as JSON, and as Markdown for a CI job summary.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// progress runs `drill progress [--json]`.
func (t *Tool) progress(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("progress", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON document instead of a table")
	names, err := parseArgs(fs, args, "[--json]",
		"Shows your progress per chapter: exercises done, hints used, and the last score of each\n"+
			"test exercise. Solved counts your solutions saved under chapters/*/solutions/, committed\n"+
			"or not: what grade checks. Verified counts those verified in this checkout (by verify,\n"+
			"or by 'go run ./tools/drill grade'). With GITHUB_STEP_SUMMARY set, the table is\n"+
			"appended there too.", t.Stderr)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		return usagef("takes no arguments, got %q", names[0])
	}
	set, err := t.exerciseSet()
	if err != nil {
		return err
	}
	prog, err := exercise.LoadProgress(set.Root)
	if err != nil {
		return err
	}
	status, err := exercise.Statuses(set)
	if err != nil {
		return err
	}
	s := exercise.Summarize(set, prog, status)
	if *asJSON {
		err = writeJSON(t.Stdout, s)
	} else {
		writeProgress(t.Stdout, s)
	}
	if err != nil {
		return err
	}
	if t.SummaryFile != "" {
		if err := appendProgress(t.SummaryFile, s); err != nil {
			fmt.Fprintf(t.Stderr, "drill progress: job summary: %v\n", err)
		}
	}
	return nil
}

// scores lists a chapter's test scores as "NAME 3/5".
func scores(cp exercise.ChapterProgress) string {
	var out []string
	for _, ts := range cp.Tests {
		out = append(out, fmt.Sprintf("%s %d/%d", ts.Name, ts.Caught, ts.Chaffs))
	}
	return strings.Join(out, ", ")
}

// writeProgress prints s as a table.
func writeProgress(w io.Writer, s exercise.Summary) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHAPTER\tSOLVED\tVERIFIED HERE\tHINTS\tTEST SCORES")
	for _, cp := range s.Chapters {
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%s\n", cp.Chapter, cp.Solved, cp.Exercises, cp.Done, cp.Hints, scores(cp))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s\n", progressLineOf(s))
}

// progressLineOf is the one-line total.
func progressLineOf(s exercise.Summary) string {
	line := fmt.Sprintf("%d of %d exercises solved, %d of them verified in this tree, %d hints used", s.Solved, s.Exercises, s.Done, s.Hints)
	if s.Solved > s.Done {
		line += " (go run ./tools/drill grade verifies the rest)"
	}
	if s.Current != "" {
		line += "; current: " + s.Current
	}
	return line
}

// appendProgress appends s as Markdown to file.
func appendProgress(file string, s exercise.Summary) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "## Learner progress\n\n%s\n\n", progressLineOf(s))
	fmt.Fprintf(f, "| chapter | solved | verified here | hints | test scores |\n|---|---:|---:|---:|---|\n")
	for _, cp := range s.Chapters {
		fmt.Fprintf(f, "| %s | %d/%d | %d | %d | %s |\n", cp.Chapter, cp.Solved, cp.Exercises, cp.Done, cp.Hints, mdCell(scores(cp)))
	}
	return f.Close()
}
