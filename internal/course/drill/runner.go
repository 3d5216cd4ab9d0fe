package drill

// This file is the exercises' Runner (see package exercise): their gradings
// run through the same go test machinery and the same weakening verdicts
// as try and check.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/internal/course/exercise"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// Runner returns the exercise.Runner that runs go test for t's module.
func (t *Tool) Runner() (exercise.Runner, error) {
	root, err := t.root()
	if err != nil {
		return nil, err
	}
	return &runner{t: t, root: root}, nil
}

// runner implements exercise.Runner.
type runner struct {
	t    *Tool
	root string
}

var _ exercise.Runner = (*runner)(nil)

// Run runs one chapter's tests as req asks.
func (r *runner) Run(ctx context.Context, req exercise.Request) (*exercise.Outcome, error) {
	overlay := ""
	if len(req.Replace) > 0 {
		dir, err := os.MkdirTemp("", "drill-exercise-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		js, err := json.Marshal(struct{ Replace map[string]string }{req.Replace})
		if err != nil {
			return nil, err
		}
		overlay = filepath.Join(dir, "overlay.json")
		if err := os.WriteFile(overlay, js, 0o644); err != nil {
			return nil, err
		}
	}
	var extra []string
	if len(req.Tests) > 0 {
		extra = []string{"-run", runPattern(req.Tests)}
	}
	var log bytes.Buffer
	pr := newLivePrinter(&log, "", "")
	runs, err := r.t.goTest(ctx, r.root, []string{"./" + weakening.ChaptersDir + "/" + req.Chapter + "/"}, overlay, extra, pr.event)
	if err != nil {
		return nil, err
	}
	run, ok := runOf(runs, req.Chapter)
	if !ok {
		return nil, errors.New("the go command reported nothing for chapter " + req.Chapter)
	}
	// Compiler messages name the overlay's copies; the learner knows the
	// files by their own names.
	names := strings.NewReplacer(replacedNames(r.root, req.Replace)...)
	out := &exercise.Outcome{Log: names.Replace(log.String())}
	switch {
	case run.BuildFailed:
		out.BuildFailed = true
		out.Message = names.Replace(compilerLines(run.BuildOutput, 10))
	case run.TimedOut:
		out.Message = "the tests did not finish within the -timeout " + r.t.timeout().String()
		if running := run.running(); len(running) > 0 {
			out.Message += " (still running: " + strings.Join(running, ", ") + ")"
		}
	default:
		out.Passed = run.Action == "pass"
		out.Message = run.firstFailure()
		if out.Message == "" && !out.Passed {
			out.Message = firstLines(run.Output, 5)
		}
	}
	var failed strings.Builder
	for _, n := range run.FailOrder {
		if !strings.Contains(n, "/") {
			out.Failed = append(out.Failed, n)
		}
		failed.WriteString(run.Tests[n].Output.String())
	}
	out.Output = failed.String()
	return out, nil
}

// replacedNames returns old, new pairs for strings.NewReplacer: each
// overlay copy's path, then the name of the file it stands for.
func replacedNames(root string, replace map[string]string) []string {
	var pairs []string
	for target, copyPath := range replace {
		rel, err := filepath.Rel(root, target)
		if err != nil {
			rel = target
		}
		pairs = append(pairs, copyPath, filepath.ToSlash(rel))
	}
	return pairs
}

// compilerLines returns the first n lines of the compiler's messages,
// without the go command's "# package" headers.
func compilerLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "# ") && len(lines) < n {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// Grade grades weakening w against the working tree as it is now.
func (r *runner) Grade(ctx context.Context, w *weakening.Weakening) (exercise.Graded, error) {
	res, err := r.t.grade(ctx, r.root, w, nil)
	if err != nil {
		return exercise.Graded{}, err
	}
	switch {
	case res.Verdict == Caught || res.Problem == PatternNotMatched:
		return exercise.Graded{Applies: true, Caught: true}, nil
	case res.Verdict == Survived:
		return exercise.Graded{Applies: true, Reason: res.Reason}, nil
	case res.Problem == RunFailed:
		return exercise.Graded{}, fmt.Errorf("grade %s: %s", w.Name, res.Reason)
	}
	return exercise.Graded{Reason: res.Reason}, nil
}
