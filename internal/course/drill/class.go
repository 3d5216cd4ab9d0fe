package drill

// This file grades a class: the course fetched once (a folder, or a
// module version through the go command), then each learner's fork, a
// folder or a git URL cloned for the purpose, graded against it. A fork
// that cannot be read is named in the table, never fatal.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

// resolveCourse returns the folder of the course spec names: "" for none,
// a folder as it is, or MODULE@VERSION downloaded into the module cache
// by the go command, which checks it against the checksum database.
func (t *Tool) resolveCourse(ctx context.Context, spec string) (string, error) {
	if spec == "" {
		return "", nil
	}
	if info, err := os.Stat(spec); err == nil && info.IsDir() {
		return filepath.Abs(spec)
	}
	mod, version, ok := strings.Cut(spec, "@")
	if !ok || mod == "" || version == "" {
		return "", usagef("--course %s: %v", spec, errNoCourse)
	}
	goCmd := t.Go
	if goCmd == "" {
		goCmd = "go"
	}
	// Outside any module, so the learner's go.mod and go.sum play no part.
	outside, err := os.MkdirTemp("", "drill-course-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(outside)
	cmd := exec.CommandContext(ctx, goCmd, "mod", "download", "-json", spec)
	cmd.Dir = outside
	cmd.Env = append(append(os.Environ(), t.Env...), "GO111MODULE=on")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var dl struct{ Dir, Error string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Error != "" || dl.Dir == "" {
		why := strings.TrimSpace(dl.Error)
		if why == "" {
			why = strings.TrimSpace(stderr.String())
		}
		if why == "" && runErr != nil {
			why = runErr.Error()
		}
		return "", fmt.Errorf("--course %s: the go command could not fetch it: %s", spec, firstLine(why))
	}
	return dl.Dir, nil
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// gradeClass grades every fork against g's course and prints one table.
func (t *Tool) gradeClass(ctx context.Context, g *exercise.Grader, course string, forks, names []string, asJSON, asMarkdown, verbose bool) error {
	rep := classReport{Course: course}
	quiet := asJSON || asMarkdown
	for _, fork := range forks {
		if !quiet {
			fmt.Fprintf(t.Stdout, "drill grade: %s against %s\n", fork, course)
		}
		lr := gradeReport{Course: course, Learner: fork, Proven: true}
		root, cleanup, err := fetchFork(ctx, fork)
		if err == nil {
			lr.Exercises, err = g.Grade(ctx, root, names, func(r exercise.GradeResult) {
				if !quiet {
					printGrade(t.Stdout, r, verbose)
				}
			})
			cleanup()
		}
		if ctx.Err() != nil {
			return exercise.ErrInterrupted
		}
		if err != nil {
			lr.Error, lr.Proven = err.Error(), false
		}
		tally(&lr)
		rep.Learners = append(rep.Learners, lr)
	}
	var err error
	switch {
	case asJSON:
		err = writeJSON(t.Stdout, rep)
	case asMarkdown:
		writeClassTable(t.Stdout, rep, true)
	default:
		fmt.Fprintln(t.Stdout)
		writeClassTable(t.Stdout, rep, false)
	}
	if err != nil {
		return err
	}
	if t.SummaryFile != "" {
		if f, err := os.OpenFile(t.SummaryFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			writeClassTable(f, rep, true)
			f.Close()
		}
	}
	// Like a learner's own grade, a missing solution is work not done yet,
	// not a failure of the grading; a failed one, or a fork that could not
	// be graded, sets the exit status.
	for _, lr := range rep.Learners {
		if lr.Error != "" || slices.ContainsFunc(lr.Exercises, func(g exercise.GradeResult) bool { return g.Verdict == exercise.Failed }) {
			return errReported
		}
	}
	return nil
}

// fetchFork returns the folder of a fork: itself, or a shallow clone of
// a git URL, which cleanup removes.
func fetchFork(ctx context.Context, fork string) (root string, cleanup func(), err error) {
	if info, err := os.Stat(fork); err == nil && info.IsDir() {
		return fork, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "drill-fork-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.CommandContext(ctx, "git", "clone", "-q", "--depth", "1", fork, dir)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("cannot clone %s: %s", fork, firstLine(strings.TrimSpace(string(out))))
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// writeClassTable writes rep as one table, exercise by learner, with each
// learner's total; markdown chooses Markdown over aligned text.
func writeClassTable(w io.Writer, rep classReport, markdown bool) {
	cols := []string{"exercise"}
	for _, lr := range rep.Learners {
		cols = append(cols, lr.Learner)
	}
	var rows [][]string
	var order []string
	cell := map[string]map[string]string{}
	for _, lr := range rep.Learners {
		for _, g := range lr.Exercises {
			if cell[g.Name] == nil {
				cell[g.Name] = map[string]string{}
				order = append(order, g.Name)
			}
			cell[g.Name][lr.Learner] = g.Verdict
		}
	}
	for _, name := range order {
		row := []string{name}
		for _, lr := range rep.Learners {
			v := cell[name][lr.Learner]
			if v == "" {
				v = "-"
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	total := []string{"verified"}
	for _, lr := range rep.Learners {
		if lr.Error != "" {
			total = append(total, "error: "+lr.Error)
			continue
		}
		total = append(total, fmt.Sprintf("%d/%d", lr.Verified, lr.Total))
	}
	rows = append(rows, total)
	if markdown {
		fmt.Fprintf(w, "## Class grade against %s\n\n", rep.Course)
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(mdCells(cols), " | "), strings.Repeat("---|", len(cols)))
		for _, r := range rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(mdCells(r), " | "))
		}
		return
	}
	width := make([]int, len(cols))
	for _, r := range append([][]string{cols}, rows...) {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range append([][]string{cols}, rows...) {
		var b strings.Builder
		for i, c := range r {
			fmt.Fprintf(&b, "%-*s  ", width[i], c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// mdCells escapes each cell for a Markdown table.
func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdCell(c)
	}
	return out
}
