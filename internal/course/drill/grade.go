package drill

// This file is `drill grade`: every saved solution verified again from the
// exercise's starting point, in a scratch copy of the course, the way a
// fork's CI grades a learner; with FORK arguments, a whole class in one
// table.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/variant"
)

// gradeReport is what `drill grade --json` prints for one learner.
type gradeReport struct {
	// Course is where the course graded against came from: the --course
	// argument, or "" for the learner's own tree.
	Course    string                 `json:"course"`
	Exercises []exercise.GradeResult `json:"exercises"`
	Verified  int                    `json:"verified"`
	Total     int                    `json:"total"`
	// Proven is false when the grade ran on the learner's own course
	// files and some of them differ from the course as released
	// (ChangedCourseFiles), or that could not be told: then a verified
	// solution may owe its verdict to an edited test or tool.
	Proven             bool     `json:"proven"`
	ChangedCourseFiles []string `json:"changed_course_files,omitempty"`
	// Learner is the fork graded (class grades only); Error says why it
	// could not be.
	Learner string `json:"learner,omitempty"`
	Error   string `json:"error,omitempty"`
}

// classReport is what `drill grade --json FORK...` prints.
type classReport struct {
	Course   string        `json:"course"`
	Learners []gradeReport `json:"learners"`
}

// gradeHelp is grade's summary in drill grade -h.
const gradeHelp = "Grades you from your saved solutions alone (chapters/*/solutions/): in a scratch copy of\n" +
	"the course, each exercise is started, your solution applied to that starting point and\n" +
	"verified again, with every chapter your code reaches. Each is verified, failed (with the\n" +
	"reason; -v adds what the failing tests printed) or missing. Exit status 1 if a solution\n" +
	"fails or the grade is not proven.\n\n" +
	"Without --course, the course is your own tree, so your own tests and tools decide: grade\n" +
	"then names every course file that differs from the course as released (chapters/course.sum)\n" +
	"and counts nothing as proven while one does. With --course DIR (a clean clone of the\n" +
	"course) or --course MODULE@VERSION (fetched by the go command and checked against the\n" +
	"checksum database), every file but your solutions comes from that course: no file you\n" +
	"write can change the count. Your fork's CI runs the grade with a pinned course.\n\n" +
	"FORK arguments (folders or git URLs) grade a class: one table, learner by exercise."

// grade runs `drill grade [NAME...] [FORK...] [--course DIR|MODULE@VERSION] [--json] [--markdown] [-v]`.
func (t *Tool) grade(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, `print the grade as JSON: {"course", "exercises": [{"name", "chapter", "kind", "verdict", "detail", "output"}], "verified", "total", "proven", "changed_course_files"}`)
	asMarkdown := fs.Bool("markdown", false, "print the grade as a Markdown table (a job summary's)")
	verbose := fs.Bool("v", false, "print what the failing tests printed under each failed solution")
	course := fs.String("course", "", "grade against this course: a folder (a clean clone) or MODULE@VERSION")
	positional, err := parseArgs(fs, args, "[NAME...] [FORK...] [--course DIR|MODULE@VERSION] [--json] [--markdown] [-v]", gradeHelp, t.Stderr)
	if err != nil {
		return err
	}
	if *asJSON && *asMarkdown {
		return usagef("--json and --markdown both choose the output; give one")
	}
	var names, forks []string
	for _, a := range positional {
		if looksLikeFork(a) {
			forks = append(forks, a)
		} else {
			names = append(names, a)
		}
	}
	courseDir, err := t.resolveCourse(ctx, *course)
	if err != nil {
		return err
	}
	learnerRoot := ""
	if len(forks) == 0 {
		if learnerRoot, err = t.root(); err != nil {
			return err
		}
		// Grade marks the verified solutions in drill's state.
		unlock, err := t.lockTree(learnerRoot, "grade")
		if err != nil {
			return err
		}
		defer unlock()
	} else if courseDir == "" {
		return usagef("grading forks needs --course DIR|MODULE@VERSION: the course every fork is graded against")
	}
	g, err := exercise.NewGrader(ctx, courseDir, learnerRoot, func(root string) *variant.Runner { return t.runner(root) })
	if err != nil {
		return err
	}
	defer g.Close()
	for _, n := range names {
		if _, ok := g.Set().Lookup(n); !ok {
			return t.unknownExercise(g.Set(), n)
		}
	}
	if len(forks) > 0 {
		return t.gradeClass(ctx, g, *course, forks, names, *asJSON, *asMarkdown, *verbose)
	}
	return t.gradeOne(ctx, g, *course, learnerRoot, names, *asJSON, *asMarkdown, *verbose)
}

// gradeOne grades the learner's own tree.
func (t *Tool) gradeOne(ctx context.Context, g *exercise.Grader, course, root string, names []string, asJSON, asMarkdown, verbose bool) error {
	rep := gradeReport{Course: course, Proven: true}
	var changedErr error
	if course == "" {
		rep.ChangedCourseFiles, changedErr = exercise.ChangedCourseFiles(root)
		rep.Proven = changedErr == nil && len(rep.ChangedCourseFiles) == 0
	}
	quiet := asJSON || asMarkdown
	if !quiet {
		from := "the course in this tree"
		if course != "" {
			from = "the course " + course
		}
		fmt.Fprintf(t.Stdout, "drill grade: verifying every saved solution from its exercise's starting point, in a scratch copy of %s\n", from)
	}
	set, err := t.exerciseSet()
	if err != nil {
		return err
	}
	onGraded := func(r exercise.GradeResult) {
		if !quiet {
			printGrade(t.Stdout, r, verbose)
		}
	}
	results, err := g.Grade(ctx, root, names, onGraded)
	if err != nil {
		return err
	}
	if err := exercise.MarkVerified(set, results); err != nil {
		return err
	}
	rep.Exercises = results
	failed := tally(&rep)
	switch {
	case asJSON:
		err = writeJSON(t.Stdout, rep)
	case asMarkdown:
		writeGradeMarkdown(t.Stdout, rep)
	default:
		fmt.Fprintf(t.Stdout, "\n%d of %d exercises verified from their saved solutions; %d failed\n", rep.Verified, rep.Total, failed)
		switch {
		case changedErr != nil:
			fmt.Fprintf(t.Stdout, "not proven: cannot compare your course files with the course as released (%v); grade with --course\n", changedErr)
		case !rep.Proven:
			fmt.Fprintf(t.Stdout, "changed course files: %s\nnot proven: these files decided the grade; grade with --course DIR|MODULE@VERSION, or put them back\n",
				strings.Join(rep.ChangedCourseFiles, " "))
		}
	}
	if err != nil {
		return err
	}
	if t.SummaryFile != "" {
		if err := appendGrade(t.SummaryFile, rep); err != nil {
			fmt.Fprintf(t.Stderr, "drill grade: job summary: %v\n", err)
		}
	}
	if failed > 0 || !rep.Proven {
		return errReported
	}
	return nil
}

// tally counts rep's verdicts and returns how many failed.
func tally(rep *gradeReport) (failed int) {
	rep.Total, rep.Verified = len(rep.Exercises), 0
	for _, g := range rep.Exercises {
		switch g.Verdict {
		case exercise.Verified:
			rep.Verified++
		case exercise.Failed:
			failed++
		}
	}
	return failed
}

// printGrade prints one grade as it arrives; verbose adds what the failing
// tests printed.
func printGrade(w io.Writer, g exercise.GradeResult, verbose bool) {
	fmt.Fprintln(w, gradeLine(g))
	if verbose && g.Output != "" {
		for _, l := range strings.Split(strings.TrimRight(g.Output, "\n"), "\n") {
			fmt.Fprintln(w, "    | "+l)
		}
	}
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
	fmt.Fprintf(w, "## Exercises verified from saved solutions\n\n%d of %d verified", rep.Verified, rep.Total)
	if !rep.Proven {
		fmt.Fprintf(w, " (not proven: changed course files %s)", mdCell(strings.Join(rep.ChangedCourseFiles, " ")))
	}
	fmt.Fprintf(w, "\n\n| exercise | chapter | kind | verdict | detail |\n|---|---|---|---|---|\n")
	for _, g := range rep.Exercises {
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", g.Name, g.Chapter, g.Kind, g.Verdict, mdCell(g.Detail))
	}
}

// looksLikeFork reports whether a positional argument of grade names a
// learner's fork (a folder, or a git URL) rather than an exercise.
func looksLikeFork(arg string) bool {
	if strings.Contains(arg, "://") || strings.HasSuffix(arg, ".git") || strings.HasPrefix(arg, "git@") {
		return true
	}
	if strings.ContainsRune(arg, filepath.Separator) || strings.HasPrefix(arg, ".") {
		return true
	}
	info, err := os.Stat(arg)
	return err == nil && info.IsDir()
}

// errNoCourse is resolveCourse's refusal of an argument that is neither.
var errNoCourse = errors.New("neither a folder nor MODULE@VERSION")
